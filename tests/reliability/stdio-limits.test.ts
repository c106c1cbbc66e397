import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

describe('flowbench mcp over stdio (security finding 8)', () => {
  it('answers a message over 10 MB with a JSON-RPC error and goes on serving', async () => {
    const child = spawn(process.execPath, [BIN, '--db', join(tempDir(), 'stdio.db'), 'mcp'], {
      cwd: ROOT,
      env: { ...process.env, FLOWBENCH_DB: '' },
    });
    const replies: { id?: unknown; result?: unknown; error?: { code: number; message: string } }[] = [];
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line) replies.push(JSON.parse(line) as (typeof replies)[number]);
    });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const reply = async (id: number) => {
      for (let i = 0; i < 200 && !replies.some((r) => r.id === id); i++) await new Promise((r) => setTimeout(r, 50));
      return replies.find((r) => r.id === id);
    };
    try {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits', version: '1' } },
      });
      expect(await reply(1)).toMatchObject({ result: { serverInfo: { name: 'flowbench' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'anything', arguments: { text: 'x'.repeat(11 * 1024 * 1024) } },
      });
      expect(await reply(2)).toMatchObject({
        error: { code: -32600, message: expect.stringContaining('limited to 10 MB') },
      });
      send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      expect(await reply(3)).toMatchObject({ result: { tools: expect.any(Array) } });
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill();
    }
  });
});
