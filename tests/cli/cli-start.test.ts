import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkOf, inspectCliBuild, loadedWith, sourcesOf, type Outputs } from '../helpers/build-chunks';
import { runCli } from '../helpers/cli';

/** The Node built-in modules a process loaded, printed at its exit by a module it was started with. */
const BUILTINS_AT_EXIT = `process.on('exit', () =>
  process.stderr.write('BUILTINS ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));`;

/** The sources of the chunks every command loads, and of those `also` names (a chunk's name). */
function sourcesAtStart(outputs: Outputs, also: RegExp[] = []): string[] {
  // main.mjs parses the command line; lib.ts imports the runtime before any command's action.
  const entries = [/\/main\.mjs$/, /\/runtime-[^/]+\.mjs$/, ...also];
  return sourcesOf(outputs, new Set(entries.flatMap((name) => [...loadedWith(outputs, chunkOf(outputs, name))])));
}

describe('what every flowbench command loads at start', () => {
  it('leaves out the MCP SDK, its zod 3 and ajv: they load with the first MCP connection, `flowbench mcp` or `serve`', async () => {
    const { outputs } = (await inspectCliBuild()).metafile;
    const chunks = Object.keys(outputs);
    const sources = sourcesAtStart(outputs);
    // What the start needs is there: the check reads the right chunks.
    expect(sources.some((source) => source.includes('core/services/open-services.ts'))).toBe(true);
    expect(sources.some((source) => source.includes('core/tools/mcp-connections.ts'))).toBe(true);
    const heavy = sources.filter((source) =>
      /node_modules\/(@modelcontextprotocol\/|ajv\/|zod\/v3\/)|core\/mcp\//.test(source),
    );
    expect(heavy).toEqual([]);
    // They are still built, for the commands that load them.
    const all = sourcesOf(outputs, chunks);
    expect(all.some((source) => source.includes('node_modules/@modelcontextprotocol/sdk/dist/esm/client/'))).toBe(true);
    expect(all.some((source) => source.includes('core/mcp/stdio.ts'))).toBe(true);
  });

  it('leaves out YAML, JSONC and the importers and exporters: they load with a file to read or write', async () => {
    const { outputs } = (await inspectCliBuild()).metafile;
    // `flowbench mcp` and `serve` as well: neither reads a file of another tool before a request asks.
    const sources = sourcesAtStart(outputs, [/\/stdio-[A-Z0-9]+\.mjs$/, /\/http-host-[^/]+\.mjs$/]);
    // The examples a new database is seeded with are read at start, as native flows.
    expect(sources.some((source) => source.includes('core/services/examples.ts'))).toBe(true);
    const formats = sources.filter((source) =>
      /node_modules\/(yaml|jsonc-parser)\/|core\/formats\/(detect|export|n8n|flowyprompt|parse-json|mcp-client-config)\.ts$/.test(
        source,
      ),
    );
    expect(formats).toEqual([]);
    // They are built, for the commands that read and write files.
    const all = sourcesOf(outputs, Object.keys(outputs));
    expect(all.some((source) => source.includes('node_modules/yaml/'))).toBe(true);
    expect(all.some((source) => source.includes('core/formats/detect.ts'))).toBe(true);
  });

  it('`serve` starts the editor without the MCP SDKs: its /mcp endpoint loads them with its first request', async () => {
    const { outputs } = (await inspectCliBuild()).metafile;
    const sources = sourcesAtStart(outputs, [/\/http-host-[^/]+\.mjs$/]);
    // The editor's side is there: its API and its pages.
    expect(sources.some((source) => source.includes('core/host/api-host.ts'))).toBe(true);
    expect(sources.some((source) => source.includes('core/host/static-files.ts'))).toBe(true);
    // core/mcp/read-body.ts is the API's body reader as well; open-ended.ts (a set of method names) tells
    // the host which MCP requests stay open, not to wait for them when it stops.
    const mcp = sources.filter((source) =>
      /node_modules\/(@modelcontextprotocol\/|ajv\/)|core\/mcp\/(?!read-body|open-ended)/.test(source),
    );
    expect(mcp).toEqual([]);
    // The endpoint's chunk, loaded by the first /mcp request, holds both revisions' servers.
    const endpoint = sourcesOf(outputs, loadedWith(outputs, chunkOf(outputs, /\/mcp-endpoint-[^/]+\.mjs$/)));
    expect(endpoint.some((source) => source.includes('node_modules/@modelcontextprotocol/sdk/dist/esm/server/'))).toBe(
      true,
    );
    expect(endpoint.some((source) => source.includes('node_modules/@modelcontextprotocol/server/'))).toBe(true);
  });

  it('a command that calls no model loads neither node:http, node:https nor node:zlib: they come with the model library', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowbench-start-'));
    try {
      const hook = join(dir, 'builtins.cjs');
      writeFileSync(hook, BUILTINS_AT_EXIT);
      const db = join(dir, 'start.db');
      const { code, stderr } = await runCli(['--db', db, 'list'], { NODE_OPTIONS: `--require ${hook}` });
      expect(code).toBe(0);
      const loaded = /BUILTINS (.*)/.exec(stderr)?.[1]?.split(' ') ?? [];
      // The list is read: the command opened its database (node:fs) and printed it.
      expect(loaded).toContain('fs');
      expect(loaded.filter((name) => ['http', 'https', 'zlib', 'tls'].includes(name))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
