import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without type declarations
import { buildCli } from '../../scripts/build-node.mjs';

/** The sources each output chunk holds, and the chunks it imports statically. */
type Outputs = Metafile['outputs'];

/** Every chunk a chunk loads before it runs: its static imports, theirs, and so on. */
function loadedWith(outputs: Outputs, chunk: string): Set<string> {
  const loaded = new Set<string>();
  const next = [chunk];
  for (let path = next.pop(); path !== undefined; path = next.pop()) {
    if (loaded.has(path)) continue;
    loaded.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) next.push(imported.path);
    }
  }
  return loaded;
}

describe('what every flowbench command loads at start', () => {
  it('leaves out the MCP SDK, its zod 3 and ajv: they load with the first MCP connection, `flowbench mcp` or `serve`', async () => {
    const inspect = buildCli as (options: { inspect: boolean }) => Promise<{ metafile: Metafile }>;
    const { metafile } = await inspect({ inspect: true });
    const chunks = Object.keys(metafile.outputs);
    const chunkOf = (name: RegExp) => {
      const found = chunks.find((path) => name.test(path));
      if (!found) throw new Error(`no chunk matches ${name} among ${chunks.join(', ')}`);
      return found;
    };
    // main.mjs parses the command line; lib.ts imports the runtime before any command's action.
    const atStart = new Set([
      ...loadedWith(metafile.outputs, chunkOf(/\/main\.mjs$/)),
      ...loadedWith(metafile.outputs, chunkOf(/\/runtime-[^/]+\.mjs$/)),
    ]);
    const sources = [...atStart].flatMap((chunk) => Object.keys(metafile.outputs[chunk]?.inputs ?? {}));
    // What the start needs is there: the check reads the right chunks.
    expect(sources.some((source) => source.includes('core/services/open-services.ts'))).toBe(true);
    expect(sources.some((source) => source.includes('core/tools/mcp-connections.ts'))).toBe(true);
    const heavy = sources.filter((source) =>
      /node_modules\/(@modelcontextprotocol\/|ajv\/|zod\/v3\/)|core\/mcp\//.test(source),
    );
    expect(heavy).toEqual([]);
    // They are still built, for the commands that load them.
    const all = chunks.flatMap((chunk) => Object.keys(metafile.outputs[chunk]?.inputs ?? {}));
    expect(all.some((source) => source.includes('node_modules/@modelcontextprotocol/sdk/dist/esm/client/'))).toBe(true);
    expect(all.some((source) => source.includes('core/mcp/stdio.ts'))).toBe(true);
  });
});
