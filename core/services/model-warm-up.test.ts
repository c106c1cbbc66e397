import { describe, expect, it } from 'vitest';
import { warmModelCalls, warmModelCallsOnce } from './model-warm-up';

const servers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

describe('warmModelCalls', () => {
  it('makes one model call to a loopback server of its own and leaves nothing listening', async () => {
    const before = servers();
    expect(await warmModelCalls()).toBe(true);
    // Closing is asynchronous: the server's handle goes on the next turns.
    await expect.poll(servers).toBe(before);
  });
});

describe('warmModelCallsOnce', () => {
  it('warms up once in a process, however many callers ask', async () => {
    const first = warmModelCallsOnce(1);
    expect(warmModelCallsOnce(0)).toBe(first);
    expect(await first).toBe(true);
  });
});
