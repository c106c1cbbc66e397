import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFlow } from '../core/engine/run-flow';
import { FlowSchema, type Flow, type FlowInput } from '../core/model/flow';
import type { LlmPort } from '../core/model/llm';
import { openDatabase } from '../core/store/database';
import { FlowRepository } from '../core/store/flow-repository';
import { createRunRecorder } from '../core/store/run-recorder';
import { RunLog } from '../core/store/run-log';
import { RunRepository } from '../core/store/run-repository';
import { buildFlow, input, llm, output, template } from '../tests/helpers/flow-builder';
import { testLlm } from '../tests/helpers/llm';
import { startChildOpenAiServer } from './child-server';
import { median, ms, timeRuns, type BenchRow } from './stats';

const noLlm: LlmPort = {
  generate: () => Promise.reject(new Error('no model in this benchmark')),
  runAgent: () => Promise.reject(new Error('no model in this benchmark')),
};

/** Runs of each 1,000-node flow before measuring (see where it is used). */
const ENGINE_WARMUP_RUNS = 30;
/**
 * Runs of each 1,000-node flow measured (a few milliseconds each): the median
 * of 7 moved by 2–5 µs a node between bench runs here, as a collection or a
 * busy second core fell on one run or another.
 */
const PER_NODE_SAMPLES = 25;

function templateChain(count: number, id: string): Flow {
  const nodes = [input()];
  const edges: string[] = [];
  let previous = 'input';
  for (let i = 1; i < count - 1; i++) {
    nodes.push(template(`t${i}`, `{{inputs.topic}} step ${i} after {{nodes.${previous}.output.topic}}`));
    edges.push(`${previous}>t${i}`);
    previous = `t${i}`;
  }
  nodes.push(output(`{{nodes.${previous}.output}}`));
  edges.push(`${previous}>result`);
  return FlowSchema.parse(buildFlow({ id, parameters: [{ name: 'topic', type: 'string' }], nodes, edges }));
}

function fanOut(count: number): Flow {
  const nodes = [input()];
  const edges: string[] = [];
  for (let i = 1; i < count - 1; i++) {
    nodes.push(template(`t${i}`, `{{inputs.topic}} branch ${i}`));
    edges.push(`input>t${i}`, `t${i}>result`);
  }
  nodes.push(output('{{nodes.t1.output}}'));
  return FlowSchema.parse(buildFlow({ id: 'fan', parameters: [{ name: 'topic', type: 'string' }], nodes, edges }));
}

/** 3 independent branches of 3 LLM nodes: its critical path is three model calls (the cold bench runs it too). */
export function threeByThreeFlow(id: string): FlowInput {
  const nodes: FlowInput['nodes'] = [input()];
  const edges: string[] = [];
  for (const b of ['a', 'b', 'c']) {
    nodes.push(
      llm(`${b}1`, 'one'),
      llm(`${b}2`, `two {{nodes.${b}1.output}}`),
      llm(`${b}3`, `three {{nodes.${b}2.output}}`),
    );
    edges.push(`input>${b}1`, `${b}1>${b}2`, `${b}2>${b}3`, `${b}3>result`);
  }
  nodes.push(output('{{nodes.a3.output}} {{nodes.b3.output}} {{nodes.c3.output}}'));
  return buildFlow({ id, nodes, edges, parameters: [{ name: 'topic', type: 'string' }] });
}

/**
 * Overhead per node of the 1,000-node chain and fan-out, their steps recorded
 * through `log`; each run is timed until its records are durable (what a host
 * awaits before it answers). Measured in the steady state: V8 optimizes the
 * once-per-run code (the commit, the run's set-up) only after a few dozen
 * runs; after 2 warm-up runs a chain measured 8–13 µs a node.
 */
async function perNodeRows(how: string, chain: Flow, fan: Flow, log: RunLog): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [label, flow] of [
    ['1,000-node template chain', chain],
    ['1,000-node fan-out', fan],
  ] as const) {
    const samples = await timeRuns(
      PER_NODE_SAMPLES,
      async () => {
        const result = await runFlow({
          flow,
          inputs: { topic: 'otters' },
          llm: noLlm,
          listeners: [createRunRecorder(log, { flow, trigger: 'cli' })],
        });
        if (result.status !== 'succeeded') throw new Error(`${label} ${result.status}`);
        await log.durable();
      },
      ENGINE_WARMUP_RUNS,
    );
    const perNode = (median(samples) * 1000) / 1000;
    rows.push({
      suite: 'engine',
      metric: `overhead per node, ${label}, steps stored ${how}`,
      value: `${perNode.toFixed(1)} µs (run ${ms(median(samples))})`,
      goal: '≤ 5 µs',
      ratio: perNode / 5,
    });
  }
  return rows;
}

/** Issue 3: engine overhead per node, critical-path efficiency, storage after 1,000 runs. */
export async function benchEngine(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-bench-engine-'));
  const rows: BenchRow[] = [];
  try {
    const store = openDatabase(join(dir, 'engine.db'));
    const flows = new FlowRepository(store);
    const log = new RunLog(store);
    const runs = new RunRepository(store, log);
    const run = (flow: Flow, llmPort: LlmPort = noLlm) =>
      runFlow({
        flow,
        inputs: { topic: 'otters' },
        llm: llmPort,
        listeners: [createRunRecorder(log, { flow, trigger: 'cli' })],
      });

    const chain = templateChain(1000, 'chain');
    const fan = fanOut(1000);
    flows.create(chain);
    flows.create(fan);
    rows.push(...(await perNodeRows("as flowbench run records it: commits on the run's thread", chain, fan, log)));
    // The desktop app, serve and flowbench mcp hand run records to a writer thread, durable once in
    // the run's journal: the engine's thread no longer commits. Its own database, with the same flows.
    const hostStore = openDatabase(join(dir, 'host.db'));
    const hostFlows = new FlowRepository(hostStore);
    hostFlows.create(chain);
    hostFlows.create(fan);
    const hostLog = new RunLog(hostStore, { background: true });
    try {
      rows.push(
        ...(await perNodeRows(
          'as the app, serve and mcp record it: journaled, committed by the writer thread',
          chain,
          fan,
          hostLog,
        )),
      );
    } finally {
      hostLog.close();
      hostStore.close();
    }

    // Critical path: 3 independent branches of 3 LLM nodes, the server answering in 200 ms.
    const server = await startChildOpenAiServer(200);
    try {
      const threeByThree = FlowSchema.parse(threeByThreeFlow('three-by-three'));
      flows.create(threeByThree);
      const port = testLlm(server.url);
      // The floor this machine and the test server set: the same 3 × 3 requests with plain fetch, no engine,
      // no AI SDK. Each answer comes a little after its 200 ms (timer, loopback), for any client.
      const body = JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content: 'one' }] });
      const chain = async () => {
        for (let i = 0; i < 3; i++) {
          const response = await fetch(`${server.url}/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          await response.json();
        }
      };
      const walls: number[] = [];
      const floors: number[] = [];
      await timeRuns(
        7,
        async (i) => {
          const started = performance.now();
          await Promise.all([chain(), chain(), chain()]);
          if (i >= 0) floors.push(performance.now() - started);
          const flowStarted = performance.now();
          await run(threeByThree, port);
          if (i >= 0) walls.push(performance.now() - flowStarted);
        },
        3,
      );
      const efficiency = median(walls) / 600;
      rows.push(
        {
          suite: 'engine',
          metric: '3×3 LLM flow, wall time over critical path (600 ms)',
          value: `${efficiency.toFixed(3)} (wall ${ms(median(walls))}; sequential = 3.0)`,
          goal: '≤ 1.02',
          ratio: efficiency / 1.02,
        },
        {
          suite: 'engine',
          metric: '  same 9 requests by plain fetch, 3 chains of 3 (no goal)',
          value: `${(median(floors) / 600).toFixed(3)} (wall ${ms(median(floors))}): this machine's floor`,
        },
      );
    } finally {
      server.stop();
    }

    // Storage: 1,000 runs of a 50-node flow, each run's steps recorded.
    const fifty = templateChain(50, 'fifty');
    flows.create(fifty);
    const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    for (let i = 0; i < 1000; i++) await run(fifty);
    const elapsed = performance.now() - started;
    store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    global.gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    const dbBytes = sizeOf(join(dir, 'engine.db')) + sizeOf(join(dir, 'engine.db-wal'));
    rows.push(
      {
        suite: 'engine',
        metric: '1,000 runs of a 50-node flow: time',
        value: `${(elapsed / 1000).toFixed(2)} s (${ms(elapsed / 1000)} a run)`,
      },
      {
        suite: 'engine',
        metric: '1,000 runs of a 50-node flow: database size',
        value: `${(dbBytes / 1024 / 1024).toFixed(1)} MB (${runs.count()} runs stored)`,
      },
      {
        suite: 'engine',
        metric: '1,000 runs of a 50-node flow: heap growth / RSS',
        value: `${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MB / ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
      },
    );
    store.close();
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
