import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { echoFlow } from '../tests/fixtures/mcp-flows';
import { prepareDatabase, publishFlows } from '../tests/helpers/mcp';
import { BIN, ROOT } from '../tests/helpers/cli';
import { median, ms, type BenchRow } from './stats';

/**
 * Issue 18's start-up figures, each beside its baseline measured in the same
 * run, alternating so that a noisy moment hits both: `flowbench --help` against
 * `node -e 0`, and spawn → `tools/list` answered against a bare SDK server.
 */
const RUNS = 15;
const BARE_STDIO = join(import.meta.dirname, 'bare-stdio-server.mjs');

function timeProcess(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore', cwd: ROOT });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
  return performance.now() - started;
}

/** Milliseconds from spawn until the answer to `tools/list` (after initialize) arrives. */
function timeToToolsList(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], env });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  return new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before answering`)));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffered.slice(0, newline)) as { id?: number; result?: { tools?: unknown[] } };
        buffered = buffered.slice(newline + 1);
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          const elapsed = performance.now() - started;
          child.removeAllListeners('exit');
          child.kill();
          if (!message.result?.tools?.length) reject(new Error(`${args.join(' ')} listed no tools`));
          else resolve(elapsed);
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
  });
}

export async function benchStartup(): Promise<BenchRow[]> {
  const node: number[] = [];
  const help: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    node.push(timeProcess(['-e', '0']));
    help.push(timeProcess([BIN, '--help']));
  }
  const helpGoal = 2 * median(node) + 100;

  const dir = mkdtempSync(join(tmpdir(), 'flowbench-bench-startup-'));
  const rows: BenchRow[] = [];
  try {
    // A database with published flows, so the answer lists real tools.
    const db = join(dir, 'startup.db');
    prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
    const env = { ...process.env, FLOWBENCH_DB: db };
    const bare: number[] = [];
    const flowbench: number[] = [];
    const run: number[] = [];
    const list: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bare.push(await timeToToolsList([BARE_STDIO], env));
      flowbench.push(await timeToToolsList([BIN, 'mcp'], env));
      run.push(timeProcess([BIN, '--db', db, 'run', 'echo', '--input', 'message=hi']));
      list.push(timeProcess([BIN, '--db', db, 'list']));
    }
    rows.push(
      {
        suite: 'startup',
        metric: '`flowbench --help` (median of 15)',
        value: `${ms(median(help))} (node -e 0: ${ms(median(node))})`,
        goal: `≤ 2× node + 100 ms = ${ms(helpGoal)}`,
        ratio: median(help) / helpGoal,
      },
      {
        suite: 'startup',
        metric: 'spawn → tools/list answered, `flowbench mcp`',
        value: `${ms(median(flowbench))} (bare SDK: ${ms(median(bare))})`,
        goal: '≤ 1.5× bare SDK stdio server',
        ratio: median(flowbench) / median(bare) / 1.5,
      },
      {
        suite: 'startup',
        metric: '`flowbench run` of a flow without model nodes, spawn → exit (no goal)',
        value: `${ms(median(run))} (node -e 0: ${ms(median(node))})`,
      },
      {
        suite: 'startup',
        metric: '`flowbench list`, spawn → exit (no goal)',
        value: `${ms(median(list))} (node -e 0: ${ms(median(node))})`,
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const electron = join(ROOT, 'node_modules', 'electron', 'path.txt');
  rows.push({
    suite: 'startup',
    metric: 'desktop window shows the home screen',
    value: existsSync(electron)
      ? 'measured by tests/browser/electron.spec.ts (printed there)'
      : "not measured: Electron's binary is not installed here",
    goal: '< 1.5 s',
  });
  return rows;
}
