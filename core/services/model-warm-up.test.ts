import { describe, expect, it } from 'vitest';
import { warmModelCalls } from './model-warm-up';

const servers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

describe('warmModelCalls', () => {
  it('makes one model call to a loopback server of its own and leaves nothing listening', async () => {
    const before = servers();
    expect(await warmModelCalls()).toBe(true);
    // Closing is asynchronous: the server's handle goes on the next turns.
    await expect.poll(servers).toBe(before);
  });
});
