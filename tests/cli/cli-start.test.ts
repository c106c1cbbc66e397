import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkOf, inspectCliBuild, loadedWith, sourcesOf } from '../helpers/build-chunks';
import { runCli } from '../helpers/cli';

/** The Node built-in modules a process loaded, printed at its exit by a module it was started with. */
const BUILTINS_AT_EXIT = `process.on('exit', () =>
  process.stderr.write('BUILTINS ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));`;

describe('what every flowbench command loads at start', () => {
  it('leaves out the MCP SDK, its zod 3 and ajv: they load with the first MCP connection, `flowbench mcp` or `serve`', async () => {
    const { outputs } = (await inspectCliBuild()).metafile;
    const chunks = Object.keys(outputs);
    // main.mjs parses the command line; lib.ts imports the runtime before any command's action.
    const atStart = new Set([
      ...loadedWith(outputs, chunkOf(outputs, /\/main\.mjs$/)),
      ...loadedWith(outputs, chunkOf(outputs, /\/runtime-[^/]+\.mjs$/)),
    ]);
    const sources = sourcesOf(outputs, atStart);
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

  it('`serve` starts the editor without the MCP SDKs: its /mcp endpoint loads them with its first request', async () => {
    const { outputs } = (await inspectCliBuild()).metafile;
    const atStart = new Set([
      ...loadedWith(outputs, chunkOf(outputs, /\/main\.mjs$/)),
      ...loadedWith(outputs, chunkOf(outputs, /\/runtime-[^/]+\.mjs$/)),
      ...loadedWith(outputs, chunkOf(outputs, /\/http-host-[^/]+\.mjs$/)),
    ]);
    const sources = sourcesOf(outputs, atStart);
    // The editor's side is there: its API and its pages.
    expect(sources.some((source) => source.includes('core/host/api-host.ts'))).toBe(true);
    expect(sources.some((source) => source.includes('core/host/static-files.ts'))).toBe(true);
    // core/mcp/read-body.ts is the API's body reader as well.
    const mcp = sources.filter((source) =>
      /node_modules\/(@modelcontextprotocol\/|ajv\/)|core\/mcp\/(?!read-body)/.test(source),
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
