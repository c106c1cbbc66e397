import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedLater, inspectCliBuild, loadedWith, type Inputs } from '../helpers/cli-build';
import { runCli } from '../helpers/cli';
import { echoFlow } from '../fixtures/mcp-flows';
import { LEGACY_OPENING, prepareDatabase, publishFlows } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

/** The Node built-in modules a process loaded, printed at its exit by a module it was started with. */
const BUILTINS_AT_EXIT = `process.on('exit', () =>
  process.stderr.write('BUILTINS ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));`;

const tempDir = useTempDir();

/** Counts the functions made from text (zod's own compiled parsers among them), printed at the process's exit. */
const FUNCTIONS_AT_EXIT = `let made = 0;
globalThis.Function = new Proxy(Function, {
  construct: (target, args) => (made++, Reflect.construct(target, args)),
  apply: (target, self, args) => (made++, Reflect.apply(target, self, args)),
});
process.on('exit', () => process.stderr.write('FUNCTIONS ' + made + '\\n'));`;

/** The sources every command runs at start, and those run with the sources `also` names (each one `import()` loads). */
function sourcesAtStart(inputs: Inputs, also: string[] = []): string[] {
  // main.ts parses the command line; lib.ts imports the runtime before any command's action.
  const later = importedLater(inputs);
  for (const source of ['core/cli/runtime.ts', ...also]) expect(later).toContain(source);
  return [...new Set(['core/cli/main.ts', 'core/cli/runtime.ts', ...also].flatMap((s) => [...loadedWith(inputs, s)]))];
}

describe('what every flowbench command loads at start', () => {
  it('leaves out the MCP SDK, its zod 3 and ajv: they load with the first MCP connection, `flowbench mcp` or `serve`', async () => {
    const { inputs } = (await inspectCliBuild()).metafile;
    const sources = sourcesAtStart(inputs);
    // What the start needs is there: the check reads the right chunks.
    expect(sources.some((source) => source.includes('core/services/open-services.ts'))).toBe(true);
    expect(sources.some((source) => source.includes('core/tools/mcp-connections.ts'))).toBe(true);
    const heavy = sources.filter((source) =>
      /node_modules\/(@modelcontextprotocol\/|ajv\/|zod\/v3\/)|core\/mcp\//.test(source),
    );
    expect(heavy).toEqual([]);
    // They are still built, for the commands that load them.
    const all = Object.keys(inputs);
    expect(all.some((source) => source.includes('node_modules/@modelcontextprotocol/sdk/dist/esm/client/'))).toBe(true);
    expect(all.some((source) => source.includes('core/mcp/stdio.ts'))).toBe(true);
  });

  it('leaves out YAML, JSONC and the importers and exporters: they load with a file to read or write', async () => {
    const { inputs } = (await inspectCliBuild()).metafile;
    // `flowbench mcp` and `serve` as well: neither reads a file of another tool before a request asks.
    const sources = sourcesAtStart(inputs, ['core/mcp/stdio.ts', 'core/mcp/stdio-modern.ts', 'core/host/http-host.ts']);
    // The examples a new database is seeded with are read at start, as native flows.
    expect(sources.some((source) => source.includes('core/services/examples.ts'))).toBe(true);
    const formats = sources.filter((source) =>
      /node_modules\/(yaml|jsonc-parser)\/|core\/formats\/(detect|export|n8n|flowyprompt|parse-json|mcp-client-config)\.ts$/.test(
        source,
      ),
    );
    expect(formats).toEqual([]);
    // They are built, for the commands that read and write files.
    const all = Object.keys(inputs);
    expect(all.some((source) => source.includes('node_modules/yaml/'))).toBe(true);
    expect(all.some((source) => source.includes('core/formats/detect.ts'))).toBe(true);
  });

  it('`serve` starts the editor without the MCP SDKs: its /mcp endpoint loads them with its first request', async () => {
    const { inputs } = (await inspectCliBuild()).metafile;
    const sources = sourcesAtStart(inputs, ['core/host/http-host.ts']);
    // The editor's side is there: its API and its pages.
    expect(sources.some((source) => source.includes('core/host/api-host.ts'))).toBe(true);
    expect(sources.some((source) => source.includes('core/host/static-files.ts'))).toBe(true);
    // core/mcp/read-body.ts is the API's body reader as well; open-ended.ts (a set of method names) tells
    // the host which MCP requests stay open, not to wait for them when it stops.
    const mcp = sources.filter((source) =>
      /node_modules\/(@modelcontextprotocol\/|ajv\/)|core\/mcp\/(?!read-body|open-ended)/.test(source),
    );
    expect(mcp).toEqual([]);
    // The endpoint, loaded by the first /mcp request, brings both revisions' servers.
    expect(importedLater(inputs)).toContain('core/host/mcp-endpoint.ts');
    const endpoint = [...loadedWith(inputs, 'core/host/mcp-endpoint.ts')];
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

  it("a one-shot command makes no parsers of zod's own (see zod-parsers.ts); `flowbench mcp` does, for the messages it parses at every call", async () => {
    const hook = join(tempDir(), 'functions.cjs');
    writeFileSync(hook, FUNCTIONS_AT_EXIT);
    const db = join(tempDir(), 'zod.db');
    prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
    const made = (stderr: string) => Number(/FUNCTIONS (\d+)/.exec(stderr)?.[1]);
    const env = { NODE_OPTIONS: `--require ${hook}` };
    const run = await runCli(['--db', db, 'run', 'echo', '--input', 'message=hi'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('You said: hi');
    expect(made(run.stderr)).toBe(0);
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo_tool', arguments: { message: 'hi' } },
    };
    const lines = [...LEGACY_OPENING, call].map((message) => `${JSON.stringify(message)}\n`).join('');
    const mcp = await runCli(['--db', db, 'mcp'], env, lines);
    expect(mcp.code).toBe(0);
    expect(mcp.stdout).toContain('You said: hi');
    expect(made(mcp.stderr)).toBeGreaterThan(0);
  });
});
