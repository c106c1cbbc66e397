import { expect, it } from 'vitest';
import { inspectCliBuild } from '../helpers/cli-build';

// The model library loads before the first model call of every new process (model-library.ts). Each
// AI SDK provider package pins its own exact @ai-sdk/provider-utils: with versions that do not agree,
// npm installs a copy for each, and the library bundled four, 270 KB and about 10 ms of loading more.
// package.json pins versions that agree.
it('the CLI build carries one copy of the AI SDK provider utilities', async () => {
  const { inputs } = (await inspectCliBuild()).metafile;
  const copies = Object.keys(inputs).filter((input) => input.endsWith('@ai-sdk/provider-utils/dist/index.mjs'));
  expect(copies).toEqual(['node_modules/@ai-sdk/provider-utils/dist/index.mjs']);
});

// A process's first AsyncLocalStorage turns Node's promise hooks on for the rest of its life: an async
// function's call and await then took 0.32 µs instead of 0.12 here (Node 20), in the engine and the MCP
// servers alike. A model call's warnings were kept in one; they now come from its result (sdk-warnings.ts).
it('nothing the CLI build holds makes an AsyncLocalStorage or an async hook, which slow every promise after', async () => {
  const { outputFiles } = await inspectCliBuild();
  const making = (code: RegExp) => outputFiles.filter((file) => code.test(file.text)).map((file) => file.path);
  // The check reads the built code: the run writer's thread is made there.
  expect(making(/new Worker\(/).length).toBeGreaterThan(0);
  expect(making(/new AsyncLocalStorage\b|\bcreateHook\(/)).toEqual([]);
});
