import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceFlows } from '../fixtures/conformance-flows';
import { ROOT } from '../helpers/cli';
import { prepareDatabase, publishFlows } from '../helpers/mcp';
import { startServe, type ServeProcess } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.13)
 * against `flowbench serve`. Every scenario that applies to a tools-only server
 * runs here; docs/mcp-conformance.md lists the others and why they do not apply.
 * The suite sends no Authorization header, so this server runs with --no-auth.
 */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-error',
  'tools-call-with-progress',
  'server-sse-multiple-streams',
  'server-sse-polling',
  'dns-rebinding-protection',
];

const CONFORMANCE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

function runScenario(url: string, scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const tempDir = useTempDir();
let serve: ServeProcess;
let dir: string;

beforeAll(async () => {
  dir = tempDir();
  const db = join(dir, 'conformance.db');
  prepareDatabase(db, (services) => publishFlows(services, conformanceFlows));
  serve = await startServe(db, ['--no-auth']);
});
afterAll(() => serve.stop());

describe('MCP conformance suite', () => {
  for (const scenario of SCENARIOS) {
    it(scenario, async () => {
      const { code, output } = await runScenario(serve.mcpUrl, scenario);
      const totals = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
      expect(totals, output).not.toBeNull();
      expect(Number(totals?.[3]), output).toBe(0);
      expect(code, output).toBe(0);
    });
  }
});
