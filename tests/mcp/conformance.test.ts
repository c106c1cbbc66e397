import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceFlows } from '../fixtures/conformance-flows';
import { ROOT } from '../helpers/cli';
import { prepareDatabase, publishFlows } from '../helpers/mcp';
import { startServe, type ServeProcess } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance
 * 0.2.0-alpha.12, the only release with the 2026-07-28 scenarios) against
 * `flowbench serve`, once per protocol revision. Every scenario that applies
 * to a server of flow tools runs; docs/mcp-conformance.md lists the others and
 * why they do not apply. The suite sends no Authorization header, so this
 * server runs with --no-auth.
 */
interface Scenario {
  name: string;
  /** Checks that cannot pass here, each with why (the suite's own diagnostic tools, capabilities Flowbench does not offer). */
  notApplicable?: Record<string, string>;
}

const DIAGNOSTIC_TOOL = 'needs one of the suite’s own diagnostic tools, which a server of flows does not have';

const REVISIONS: Record<string, Scenario[]> = {
  '2025-11-25': [
    { name: 'server-initialize' },
    { name: 'ping' },
    { name: 'tools-list' },
    { name: 'tools-call-simple-text' },
    { name: 'tools-call-error' },
    { name: 'tools-call-with-progress' },
    { name: 'server-sse-multiple-streams' },
    {
      name: 'server-sse-polling',
      notApplicable: {
        'server-sse-priming-event': 'SHOULD: resumable streams need an event store, which the server does not keep',
        'server-sse-retry-field': 'SHOULD: as above',
      },
    },
    { name: 'dns-rebinding-protection' },
    { name: 'resources-list' },
  ],
  '2026-07-28': [
    {
      name: 'server-stateless',
      notApplicable: {
        'sep-2575-server-rejects-undeclared-capability': DIAGNOSTIC_TOOL,
        'sep-2575-missing-capability-http-400': DIAGNOSTIC_TOOL,
        'sep-2575-http-server-no-independent-requests-on-stream': DIAGNOSTIC_TOOL,
        'sep-2575-server-no-log-without-loglevel': DIAGNOSTIC_TOOL,
        'sep-2575-server-sends-tools-list-changed-on-subscription':
          'the suite changes the tool list through a diagnostic tool; tests/mcp/modern-revision.test.ts checks it by publishing',
      },
    },
    { name: 'tools-list' },
    { name: 'tools-call-simple-text' },
    { name: 'tools-call-error' },
    { name: 'tools-call-with-progress' },
    { name: 'server-sse-multiple-streams' },
    { name: 'dns-rebinding-protection' },
    {
      name: 'caching',
      notApplicable: { 'sep-2549-prompts-list-caching-hints': 'Flowbench offers no prompts' },
    },
    { name: 'resources-list' },
    { name: 'sep-2164-resource-not-found' },
  ],
};

const CONFORMANCE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
// The suite's builds import a Node 22 API at load time; see the hook's comment.
const NODE20_HOOK = join(ROOT, 'tests', 'helpers', 'conformance-node20', 'register.mjs');

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

function runScenario(url: string, scenario: string, revision: string): Promise<{ checks: Check[]; output: string }> {
  const args = ['--import', NODE20_HOOK, CONFORMANCE, 'server', '--url', url, '--scenario', scenario];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args, '--spec-version', revision, '--verbose'], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', () => {
      // --verbose prints the checks as one JSON array, from a line `[` to a line `]`.
      const json = /^\[$[\s\S]*?^\]$/m.exec(output)?.[0];
      resolve({ checks: json ? (JSON.parse(json) as Check[]) : [], output });
    });
  });
}

const tempDir = useTempDir();
let serve: ServeProcess;

beforeAll(async () => {
  const db = join(tempDir(), 'conformance.db');
  prepareDatabase(db, (services) => publishFlows(services, conformanceFlows));
  serve = await startServe(db, ['--no-auth']);
});
afterAll(() => serve.stop());

for (const [revision, scenarios] of Object.entries(REVISIONS)) {
  describe(`MCP conformance suite, revision ${revision}`, () => {
    for (const scenario of scenarios) {
      it(scenario.name, async () => {
        const { checks, output } = await runScenario(serve.mcpUrl, scenario.name, revision);
        expect(checks.length, output).toBeGreaterThan(0);
        const excused = scenario.notApplicable ?? {};
        const wrong = checks.filter((c) => !['SUCCESS', 'INFO', 'SKIPPED'].includes(c.status) && !(c.id in excused));
        expect(wrong.map((c) => `${c.id} ${c.status}: ${c.errorMessage ?? ''}`)).toEqual([]);
        // Each excused check is one the suite really ran and could not pass here (a stale excuse fails).
        for (const id of Object.keys(excused)) {
          expect(checks.find((c) => c.id === id)?.status, `${id} in ${output}`).toMatch(/FAILURE|WARNING/);
        }
      });
    }
  });
}
