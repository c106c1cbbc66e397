import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { dynamicTool, generateText, jsonSchema, stepCountIs } from 'ai';
import type { ToolPort } from '../core/model/tools';
import { openServices, type Services } from '../core/services/open-services';
import { RunService } from '../core/services/run-service';
import { buildFlow, input } from '../tests/helpers/flow-builder';
import { everythingStdio } from '../tests/helpers/mcp-servers';
import { startChildOpenAiServer } from './child-server';
import { median, ms, percentile, type BenchRow } from './stats';
import { alternateBlocks, WARMUP_CALLS } from './mcp-compare';
import { pinServers } from './pin';

const CALLS = 1000;
const TURNS = 20;
/** Loops of each kind run untimed first. */
const WARMUP_LOOPS = 100;
const LOOPS = 20;
const GOAL = 1.2;

/** The bare SDK client on server-everything over stdio: the baseline. */
async function bareClient(): Promise<Client> {
  const server = everythingStdio();
  const client = new Client({ name: 'bench-bare', version: '1' });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, stderr: 'ignore' }));
  return client;
}

/**
 * Issue 14: what Flowbench adds to each tool call an agent makes, against
 * server-everything's echo over stdio, side by side with the bare SDK client.
 * Two rows: one tool call through the ToolPort (the schema check, the
 * connection lookup) that the agent loop and the mcp_tool node use; and
 * each echo call as a 20-turn agent loop makes it (the model asking, the AI
 * SDK running the call), against the same calls made with the bare client in
 * a bare loop (the model asked with fetch). A call inside a loop takes longer
 * than alone (the process is busier), for both: so they are compared there.
 * The loop's own cost per turn is printed beside it.
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
    // The first call starts the ToolPort's server; then every server goes onto the servers' core (see pin.ts).
    await viaPort();
    pinServers();
    // Untimed first, to the steady state both reach once V8 has optimized them (see WARMUP_CALLS).
    for (let i = 0; i < WARMUP_CALLS; i++) await Promise.all([viaPort(), viaBare()]);
    const [portSamples = [], bareSamples = []] = await alternateBlocks([viaPort, viaBare], CALLS);
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
    // The loop's calls, timed where the agent hands them to the ToolPort and gets the answer back.
    const loopCalls: number[] = [];
    const timed: ToolPort = {
      listTools: (server, signal) => port.listTools(server, signal),
      findTool: (server, tool, signal) => port.findTool(server, tool, signal),
      callTool: async (...args) => {
        const started = performance.now();
        try {
          return await port.callTool(...args);
        } finally {
          loopCalls.push(performance.now() - started);
        }
      },
    };
    const runner = new RunService(opened.runLog, {
      llm: () => opened.providers.port(),
      readRun: (id) => opened.runs.get(id),
      tools: timed,
      agents: opened.agents,
    });
    const loop = async () => {
      const run = await runner.run({ flow, inputs: {}, trigger: 'cli' });
      if (run.status !== 'succeeded') throw new Error(`the bench agent run ${run.status}: ${run.error?.message}`);
    };
    // The same loop without Flowbench: the model asked with fetch (one plain request, as Flowbench makes
    // when nobody watches the tokens), the tool called with the bare client, each call timed the same way.
    const bareCalls: number[] = [];
    const bareLoop = async () => {
      const messages: unknown[] = [{ role: 'user', content: 'go' }];
      for (let turn = 0; turn <= TURNS; turn++) {
        const response = await fetch(`${model.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', messages }),
        });
        await response.json();
        if (turn === TURNS) break;
        const started = performance.now();
        await viaBare();
        bareCalls.push(performance.now() - started);
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
    // For reference: the bare client's calls inside the AI SDK's own loop, without Flowbench (the same
    // model client and tool loop Flowbench's agent uses), to tell the SDK's share from Flowbench's.
    const sdkCalls: number[] = [];
    const echo = dynamicTool({
      inputSchema: jsonSchema({ type: 'object', properties: { message: { type: 'string' } } }),
      execute: async () => {
        const started = performance.now();
        try {
          return await viaBare();
        } finally {
          sdkCalls.push(performance.now() - started);
        }
      },
    });
    const sdkModel = createOpenAICompatible({ name: 'bench', baseURL: model.url, includeUsage: true }).chatModel('m');
    const sdkLoop = () =>
      generateText({ model: sdkModel, prompt: 'go', tools: { echo }, stopWhen: stepCountIs(TURNS + 1), maxRetries: 0 });
    // About the same number of tool calls as above (20 a loop) before the loops are measured.
    for (let i = 0; i < WARMUP_LOOPS; i++) {
      await loop();
      await bareLoop();
      await sdkLoop();
    }
    loopCalls.length = 0;
    bareCalls.length = 0;
    sdkCalls.length = 0;
    const [loopSamples = [], bareLoopSamples = []] = await alternateBlocks([loop, bareLoop, sdkLoop], LOOPS, 5);
    const perCall = percentile(loopCalls, 50);
    const barePerCall = percentile(bareCalls, 50);
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
        metric: `echo call inside a ${TURNS}-turn agent loop, p50`,
        value: `${ms(perCall)} vs bare ${ms(barePerCall)}`,
        goal: `≤ ${GOAL}× the bare client's in a fetch loop`,
        ratio: perCall / barePerCall / GOAL,
      },
      {
        suite: 'agent',
        metric: "  the bare client's echo inside the AI SDK's loop (no goal)",
        value: `${ms(percentile(sdkCalls, 50))}: no Flowbench, the SDK's loop around the call`,
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
