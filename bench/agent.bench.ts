import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ToolPort } from '../core/model/tools';
import { openServices, type Services } from '../core/services/open-services';
import { RunService } from '../core/services/run-service';
import { buildFlow, input } from '../tests/helpers/flow-builder';
import { everythingStdio } from '../tests/helpers/mcp-servers';
import { startChildOpenAiServer } from './child-server';
import { median, ms, percentile, type BenchRow } from './stats';

const CALLS = 1000;
const TURNS = 20;
const LOOPS = 15;
const GOAL = 1.2;

/** The bare SDK client on server-everything over stdio: the baseline. */
async function bareClient(): Promise<Client> {
  const server = everythingStdio();
  const client = new Client({ name: 'bench-bare', version: '1' });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, stderr: 'ignore' }));
  return client;
}

/** Alternates blocks of calls between the functions so all see the same machine; returns each one's samples. */
async function alternate(fns: readonly (() => Promise<unknown>)[], total: number, blocks = 10): Promise<number[][]> {
  const samples: number[][] = fns.map(() => []);
  for (let block = 0; block < blocks; block++) {
    for (const [index, fn] of fns.entries()) {
      for (let i = 0; i < total / blocks; i++) {
        const started = performance.now();
        await fn();
        samples[index]?.push(performance.now() - started);
      }
    }
  }
  return samples;
}

/**
 * Issue 14: what Flowbench adds to each tool call an agent makes, against
 * server-everything's echo over stdio, side by side with the bare SDK client.
 * Two rows: one tool call through the ToolPort (the schema check, the
 * connection lookup) that the agent loop and the mcp_tool node use; and
 * what one echo call adds to a turn of a 20-turn agent loop (the loop with
 * the real call minus the loop with a tool that answers at once), against
 * the same difference for a bare loop: the model asked with fetch, the tool
 * with the bare client. The loop's own cost per turn is printed beside it.
 */
export async function benchAgent(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowbench-bench-agent-'));
  const model = await startChildOpenAiServer(0, TURNS);
  let services: Services | undefined;
  const bare = await bareClient();
  try {
    services = openServices(join(dir, 'bench.db'), { backgroundWrites: true });
    services.providers.set({ name: 'bench', kind: 'openai-compatible', baseUrl: model.url, defaultModel: 'm' }, true);
    services.servers.set(everythingStdio());
    const port = services.servers.connections;
    const signal = new AbortController().signal;
    const viaPort = () => port.callTool('everything', 'echo', { message: 'bench' }, { signal });
    const viaBare = () => bare.callTool({ name: 'echo', arguments: { message: 'bench' } });
    for (let i = 0; i < 200; i++) await Promise.all([viaPort(), viaBare()]);
    const [portSamples = [], bareSamples = []] = await alternate([viaPort, viaBare], CALLS);
    const portP50 = percentile(portSamples, 50);
    const bareP50 = percentile(bareSamples, 50);

    const flow = services.flows.create(
      buildFlow({
        id: 'bench-agent',
        nodes: [
          input(),
          {
            id: 'agent',
            type: 'agent',
            config: { prompt: 'go', tools: [{ server: 'everything', tool: 'echo' }], maxSteps: TURNS + 1 },
          },
          { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '{{nodes.agent.output}}' }] } },
        ],
        edges: ['input>agent', 'agent>result'],
      }),
    );
    const opened = services;
    // The same runs with a port that answers at once: the difference is what each real tool call costs the loop.
    const instant: ToolPort = {
      listTools: (server, signal) => port.listTools(server, signal),
      findTool: (server, tool, signal) => port.findTool(server, tool, signal),
      callTool: () =>
        Promise.resolve({ text: 'Echo: bench', content: [{ type: 'text', text: 'Echo: bench' }], isError: false }),
    };
    const withoutTools = new RunService(opened.runLog, {
      llm: () => opened.providers.port(),
      readRun: (id) => opened.runs.get(id),
      tools: instant,
      agents: opened.agents,
    });
    const runWith = (runner: RunService) => async () => {
      const run = await runner.run({ flow, inputs: {}, trigger: 'cli' });
      if (run.status !== 'succeeded') throw new Error(`the bench agent run ${run.status}: ${run.error?.message}`);
    };
    const loop = runWith(opened.runner);
    const instantLoop = runWith(withoutTools);
    // The same loop without Flowbench: the model asked over HTTP (one plain request, as Flowbench makes
    // when nobody watches the tokens), the tool called with the bare client, or answered at once.
    const bareLoop = (call: () => Promise<unknown>) => async () => {
      const messages: unknown[] = [{ role: 'user', content: 'go' }];
      for (let turn = 0; turn <= TURNS; turn++) {
        const response = await fetch(`${model.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', messages }),
        });
        await response.json();
        if (turn === TURNS) break;
        await call();
        messages.push(
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'echo', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: `c${turn}`, content: 'Echo: bench' },
        );
      }
    };
    const loops = [loop, instantLoop, bareLoop(viaBare), bareLoop(() => Promise.resolve())];
    for (const warm of loops) await warm();
    const [loopSamples = [], instantSamples = [], bareLoopSamples = [], bareInstantSamples = []] = await alternate(
      loops,
      LOOPS,
      5,
    );
    // What one real call adds to a loop turn, Flowbench's and the bare client's, each in its own loop.
    const perCall = (median(loopSamples) - median(instantSamples)) / TURNS;
    const barePerCall = (median(bareLoopSamples) - median(bareInstantSamples)) / TURNS;
    const perTurn = median(loopSamples) / TURNS;
    const barePerTurn = median(bareLoopSamples) / TURNS;
    return [
      {
        suite: 'agent',
        metric: 'tool call via the ToolPort (server-everything echo, stdio) p50',
        value: `${ms(portP50)} vs bare ${ms(bareP50)}`,
        goal: `≤ ${GOAL}× bare SDK client`,
        ratio: portP50 / bareP50 / GOAL,
      },
      {
        suite: 'agent',
        metric: `agent loop: each echo call's cost (${TURNS}-call loop − instant tool)`,
        value: `${ms(perCall)} vs bare ${ms(barePerCall)}`,
        goal: `≤ ${GOAL}× the bare client's in a fetch loop`,
        ratio: perCall / barePerCall / GOAL,
      },
      {
        suite: 'agent',
        metric: 'agent loop per turn, model included (informational)',
        value: `${ms(perTurn)} vs fetch + bare ${ms(barePerTurn)}`,
        goal: "no goal: the AI SDK's own cost per turn",
      },
    ];
  } finally {
    await bare.close();
    await services?.servers.close();
    services?.close();
    model.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
