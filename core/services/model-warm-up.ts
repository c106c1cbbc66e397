import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runFlow } from '../engine/run-flow';
import { FlowSchema } from '../model/flow';
import { firstRequestSent } from '../providers/http-fetch';
import { loadModelLibrary } from '../providers/model-library';

/**
 * Runs the warm-up makes at most, while no real answer has come: about
 * 70 ms of a new process's time that it would spend waiting. After 50
 * instead of one, a 3×3 flow run by `flowbench run` took 624–627 ms instead
 * of 632–633 (its later waves left about 2 ms sooner each), and the first
 * call of `flowbench mcp` 611–616 ms instead of 617–621.
 */
const WARM_UP_CALLS = 50;

/**
 * What each warm-up round runs: input → model → condition → template →
 * output, through the engine as a real run goes (checked, planned, scheduled, templates
 * filled), with nothing stored. Model calls alone left the engine's code to
 * compile on the first real run. The first call of a `flowbench mcp` (a 3×3
 * flow, 600 ms of model time) was answered 666–677 ms after it was sent,
 * now 631–658, and its run took 633–643 ms, now 621–635 (eight each way).
 */
export const WARM_UP_FLOW = FlowSchema.parse({
  schemaVersion: 1,
  id: 'warm-up',
  name: 'Warm-up',
  tool: { name: 'warm_up' },
  parameters: [{ name: 'topic', type: 'string' }],
  nodes: [
    { id: 'input', type: 'input' },
    { id: 'ask', type: 'llm', config: { prompt: 'About {{inputs.topic}}' } },
    // A condition loads its JSONPath and RE2 libraries on first use (6–9 ms each): the triage
    // example's condition, tested after a 400 ms model call, took 4 ms in a new `serve`, now 1 ms.
    {
      id: 'check',
      type: 'condition',
      config: {
        rules: [
          { value: '{"answer": "{{nodes.ask.output}}"}', path: '$.answer', operator: 'equals', operand: 'ok' },
          { value: '{{nodes.ask.output}}', operator: 'matches', operand: '^ok$' },
        ],
      },
    },
    { id: 'shape', type: 'template', config: { template: '{{nodes.ask.output}}!' } },
    { id: 'result', type: 'output', config: { returnValues: [{ id: 'r', text: '{{nodes.shape.output}}' }] } },
  ],
  edges: [
    { id: 'e0', source: 'input', sourcePort: 'out', target: 'ask', targetPort: 'in' },
    { id: 'e1', source: 'ask', sourcePort: 'out', target: 'check', targetPort: 'in' },
    { id: 'e2', source: 'check', sourcePort: 'true', target: 'shape', targetPort: 'in' },
    { id: 'e3', source: 'shape', sourcePort: 'out', target: 'result', targetPort: 'in' },
  ],
});

/** A chat completion as an OpenAI-compatible server sends one: what the warm-up's own server answers. */
const ANSWER = {
  id: 'warm-up',
  object: 'chat.completion',
  created: 0,
  model: 'warm-up',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

/**
 * The first model call in a process costs about 100 ms more than the next
 * ones: the AI SDK's code is compiled and its schemas built on first use, and
 * the HTTP client's code runs for the first time (httpFetch, the model
 * providers' own). That lands on a flow's first model nodes, and the next
 * ones still run code V8 has not optimized yet. A process makes calls of its
 * own while it waits anyway (see warmModelCallsOnce and
 * warmModelCallsAfterFirstRequest), to a server of its own on the loopback
 * interface that lives for those answers: nothing is sent anywhere else.
 * Resolves with how many calls that server answered.
 */
export async function warmModelCalls(): Promise<number> {
  let answers = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      answers++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER));
    });
  });
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // The model port real runs use (the AI SDK, httpFetch), given only this server: no settings, no key.
    const { createAiSdkPort } = await loadModelLibrary();
    const llm = createAiSdkPort(() => ({
      name: 'warm-up',
      kind: 'openai-compatible',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      defaultModel: 'warm-up',
      // Its server answers whole; runs without a listener for tokens never stream anyway.
      streaming: false,
    }));
    // Once, then again while no real answer has come: V8 optimizes code that ran many times, not once.
    for (let call = 0; call < WARM_UP_CALLS && (call === 0 || !answered); call++) {
      await runFlow({ flow: WARM_UP_FLOW, inputs: { topic: 'warm-up' }, llm }).catch(() => undefined);
    }
  } catch {
    // A warm-up that cannot listen changes nothing but the first call's time.
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return answers;
}

let warming: Promise<number> | undefined;
let answered = false;

/**
 * A real model call of this process has ended: the warm-up stops after the
 * call it is making, so that it never takes the thread from real work.
 */
export function modelAnswered(): void {
  answered = true;
}

/**
 * The warm-up, at most once in a process, `afterMs` from now, when it would
 * otherwise wait: a long-lived server (`flowbench mcp`) between a client's
 * tools/list and its first call. Any other process warms up while its first
 * model request is out (warmModelCallsAfterFirstRequest): the model takes far
 * longer than the warm-up, whose answers then come to code already compiled
 * (a 3×3 flow run by `flowbench run` took 649 ms, then 640).
 */
export function warmModelCallsOnce(afterMs = 0): Promise<number> {
  // The timer keeps no process alive: one that ends before it fires needed no warm-up.
  warming ??= new Promise((resolve) => setTimeout(() => resolve(warmModelCalls()), afterMs).unref());
  return warming;
}

/** The first requests of a flow's first wave leave within this of each other (1–2 ms measured here). */
const AFTER_FIRST_REQUEST_MS = 5;
/** A first call that goes another way than httpFetch (through a proxy) starts the warm-up this long after it. */
const AT_THE_LATEST_MS = 200;

/**
 * The warm-up, at most once in a process, once the process's first model
 * request has left (firstRequestSent), and its wave with it: while it waits
 * for the answer. Started at a fixed 40 ms after the first call instead, on a
 * busy core it began before the requests had left and held them up: with a
 * busy loop on the same core, a 3×3 flow's first requests reached the server
 * 82–125 ms after the run started, 62–99 ms with this start, and the run
 * took 707–759 ms, now 692–731 (`flowbench run`, five runs each).
 */
export function warmModelCallsAfterFirstRequest(): Promise<number> {
  warming ??= new Promise((resolve) => {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      clearTimeout(latest);
      resolve(warmModelCalls());
    };
    // Neither timer keeps a process alive: one that ends first needed no warm-up.
    const latest = setTimeout(start, AT_THE_LATEST_MS).unref();
    void firstRequestSent.then(() => setTimeout(start, AFTER_FIRST_REQUEST_MS).unref());
  });
  return warming;
}
