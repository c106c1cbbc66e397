import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlowInput } from '../core/model/flow';
import type { RunRecord } from '../core/model/run';
import { BIN, ROOT } from '../tests/helpers/cli';
import { connectStdio, prepareDatabase, publishFlows, SHOWS_VIEWS } from '../tests/helpers/mcp';
import { startChildOpenAiServer } from './child-server';
import { threeByThreeFlow } from './engine.bench';
import { median, type BenchRow } from './stats';

/** What the model server waits before each answer: the 3×3 flow's critical path is three of these. */
const DELAY_MS = 200;
const CRITICAL_MS = 3 * DELAY_MS;
const ROUNDS = 5;
/** Between a client listing the tools and its first call. */
const PERSON_MS = 500;

/** The engine bench's 3×3 flow, here run by a process that just started. */
const threeByThree = (): FlowInput => ({ ...threeByThreeFlow('cold-three'), tool: { name: 'cold_three' } });

/** `flowbench run --json` in a new process; the run's own duration (start to end, first model call included). */
function cliRun(db: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--db', db, 'run', 'cold_three', '--input', 'topic=otters', '--json'], {
      cwd: ROOT,
      env: { ...process.env, FLOWBENCH_DB: '' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`flowbench run exited ${code}: ${out}`));
      resolve((JSON.parse(out) as RunRecord).durationMs ?? Number.NaN);
    });
  });
}

/**
 * The first tools/call of a `flowbench mcp` just started, as desktop clients
 * make it: they list the tools at launch and call one when a person asks,
 * here half a second later. The run's duration, read from its record.
 */
async function mcpFirstCall(db: string): Promise<number> {
  // As a desktop client that shows MCP Apps views: the result carries the run's duration.
  const { client } = await connectStdio(db, 'cold-bench', { capabilities: SHOWS_VIEWS });
  try {
    await client.listTools();
    await new Promise((resolve) => setTimeout(resolve, PERSON_MS));
    const result = await client.callTool({ name: 'cold_three', arguments: { topic: 'otters' } });
    const run = (result._meta as { 'dev.flowbench/run'?: { durationMs: number } } | undefined)?.['dev.flowbench/run'];
    return run?.durationMs ?? Number.NaN;
  } finally {
    await client.close();
  }
}

/** Issue 20: the first model call in a new process, where lazy imports are paid (CLI run, `flowbench mcp`). */
export async function benchCold(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-bench-cold-'));
  const db = join(dir, 'cold.db');
  const server = await startChildOpenAiServer(DELAY_MS);
  try {
    prepareDatabase(db, (services) => {
      services.providers.set(
        { name: 'bench', kind: 'openai-compatible', baseUrl: server.url, defaultModel: 'm' },
        true,
      );
      publishFlows(services, [threeByThree()]);
    });
    const rows: BenchRow[] = [];
    for (const [label, once] of [
      ['flowbench run', () => cliRun(db)],
      ['flowbench mcp, first tools/call 0.5 s after tools/list', () => mcpFirstCall(db)],
    ] as const) {
      const walls: number[] = [];
      for (let i = 0; i < ROUNDS; i++) walls.push(await once());
      const efficiency = median(walls) / CRITICAL_MS;
      rows.push({
        suite: 'cold',
        metric: `first model call in a new process, 3×3 flow (${label}): wall over critical path`,
        value: `${efficiency.toFixed(3)} (run ${Math.round(median(walls))} ms; critical ${CRITICAL_MS} ms)`,
        goal: '≤ 1.05',
        ratio: efficiency / 1.05,
      });
    }
    return rows;
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
