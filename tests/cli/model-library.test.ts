import { expect, it } from 'vitest';
import { inspectCliBuild } from '../helpers/build-chunks';

// The model library loads before the first model call of every new process (model-library.ts). Each
// AI SDK provider package pins its own exact @ai-sdk/provider-utils: with versions that do not agree,
// npm installs a copy for each, and the library bundled four, 270 KB and about 10 ms of loading more.
// package.json pins versions that agree.
it('the CLI build carries one copy of the AI SDK provider utilities', async () => {
  const { inputs } = (await inspectCliBuild()).metafile;
  const copies = Object.keys(inputs).filter((input) => input.endsWith('@ai-sdk/provider-utils/dist/index.mjs'));
  expect(copies).toEqual(['node_modules/@ai-sdk/provider-utils/dist/index.mjs']);
});
