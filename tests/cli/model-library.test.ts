import { expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without type declarations
import { buildCli } from '../../scripts/build-node.mjs';

type Inspect = (options: { inspect: boolean }) => Promise<{ metafile: { inputs: Record<string, unknown> } }>;

// Each AI SDK provider package pins its own exact @ai-sdk/provider-utils: with versions that do not
// agree, npm installs a copy for each and the model library (loaded before every model call of a new
// process) bundled four, 270 KB and about 10 ms of loading more. package.json pins versions that agree.
it('the CLI build carries one copy of the AI SDK provider utilities', async () => {
  const { metafile } = await (buildCli as Inspect)({ inspect: true });
  const copies = Object.keys(metafile.inputs).filter((input) =>
    input.endsWith('@ai-sdk/provider-utils/dist/index.mjs'),
  );
  expect(copies).toEqual(['node_modules/@ai-sdk/provider-utils/dist/index.mjs']);
});
