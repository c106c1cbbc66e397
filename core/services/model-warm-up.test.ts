import { describe, expect, it, vi } from 'vitest';
import { runFlow } from '../engine/run-flow';
import type { RunEvent } from '../model/run';
import { testLlm } from '../../tests/helpers/llm';
import { startOpenAiServer } from '../../tests/helpers/openai-server';

// The warm-up's state is the process's (once, until a real answer): this file reads its own copy of
// the modules, whatever the files run before it in this test worker did with theirs.
vi.resetModules();
const { modelAnswered, WARM_UP_FLOW, warmModelCalls, warmModelCallsOnce } = await import('./model-warm-up');

const servers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

// In this order: once a real model call of the process has ended, the warm-up makes one call at most.
describe('warmModelCalls', () => {
  it('runs a small flow fifty times through the engine, each model call to a loopback server of its own, while no real answer has come, and leaves nothing listening', async () => {
    const before = servers();
    expect(await warmModelCalls()).toBe(50);
    // Closing is asynchronous: the server's handle goes on the next turns. At most as many as before:
    // a server another test file of this worker closed may go meanwhile.
    await expect.poll(servers).toBeLessThanOrEqual(before);
  });

  it('stops after the call it is making when a real model call ends, and makes one call after that', async () => {
    const warming = warmModelCalls();
    setImmediate(modelAnswered);
    const calls = await warming;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThan(50);
    expect(await warmModelCalls()).toBe(1);
  });
});

describe('WARM_UP_FLOW', () => {
  it('runs every node, its condition testing the answer through JSONPath and a pattern (what loads their libraries)', async () => {
    // The warm-up's own server answers "ok", as this one does by default.
    const server = await startOpenAiServer();
    try {
      const events: RunEvent[] = [];
      const outcome = await runFlow({
        flow: WARM_UP_FLOW,
        inputs: { topic: 'warm-up' },
        llm: testLlm(server.url),
        listeners: [(event) => events.push(event)],
      });
      expect(outcome.output).toEqual({ kind: 'return_values', values: [{ id: 'r', text: 'ok!' }] });
      const succeeded = events.filter((event) => event.type === 'node.finished').map((event) => event.nodeId);
      expect(succeeded).toEqual(['input', 'ask', 'check', 'shape', 'result']);
      const check = events.find((event) => event.type === 'node.finished' && event.nodeId === 'check');
      expect(check).toMatchObject({ output: true });
    } finally {
      await server.close();
    }
  });
});

describe('warmModelCallsOnce', () => {
  it('warms up once in a process, however many callers ask', async () => {
    const first = warmModelCallsOnce(1);
    expect(warmModelCallsOnce(0)).toBe(first);
    expect(await first).toBe(1);
  });
});
