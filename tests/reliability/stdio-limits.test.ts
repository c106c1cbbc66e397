import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnRawStdio } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

/** `flowbench mcp` over stdio, spoken to line by line: what it answers, by id. */
function startMcp() {
  const raw = spawnRawStdio(join(tempDir(), 'stdio.db'));
  return {
    ...raw,
    reply: async (id: number | null, count = 1) => {
      const matching = () => raw.messages.filter((r) => r.id === id);
      for (let i = 0; i < 200 && matching().length < count; i++) await new Promise((r) => setTimeout(r, 50));
      return matching()[count - 1];
    },
  };
}

describe('flowbench mcp over stdio (security finding 8)', () => {
  it('answers a message over 10 MB with a JSON-RPC error and goes on serving', async () => {
    const { child, send, reply } = startMcp();
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

  const modernMeta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'limits', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  it.each([
    [
      '2025-11-25 (initialize)',
      {
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'limits', version: '1' } },
      },
    ],
    ['2026-07-28 (server/discover)', { method: 'server/discover', params: { _meta: modernMeta } }],
  ])(
    'answers a line that is no JSON-RPC message instead of leaving its client waiting, and malformed params as such: %s',
    async (_, opening) => {
      const { child, messages, send, sendLine, reply } = startMcp();
      try {
        send({ jsonrpc: '2.0', id: 1, ...opening });
        expect(await reply(1)).toMatchObject({ result: expect.any(Object) });
        // Both SDKs' stdio transports dropped each of these without an answer.
        sendLine('{"jsonrpc":"2.0","id":2,"method":"tools/li');
        send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: null });
        send({ jsonrpc: '2.0', id: 'four', method: 'tools/list', params: { _meta: 'x' } });
        send({ jsonrpc: '1.0', id: 5, method: 'tools/list' });
        sendLine('');
        expect(await reply(null)).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error: the line is not JSON' },
        });
        const invalid = (message: string) => ({ error: { code: -32600, message: `Invalid Request: ${message}` } });
        expect(await reply(3)).toMatchObject(invalid('params must be an object when given'));
        expect(messages.find((r) => r.id === 'four')).toMatchObject(invalid('params._meta must be an object'));
        expect(await reply(5)).toMatchObject(invalid('jsonrpc must be "2.0"'));
        // A request whose params break the method's schema: -32602, not an internal error (-32603).
        send({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 1, _meta: modernMeta } });
        expect(await reply(7)).toMatchObject({
          error: {
            code: -32602,
            message: expect.stringMatching(/uri: Invalid input: expected string, received number/),
          },
        });
        send({
          jsonrpc: '2.0',
          id: 8,
          method: 'tools/call',
          params: { name: 'echo', arguments: 'x', _meta: modernMeta },
        });
        // Each issue in words; the SDKs' own check said zod's issue list as JSON.
        expect(await reply(8)).toMatchObject({
          error: {
            code: -32602,
            message: expect.stringMatching(/arguments: Invalid input: expected record, received string$/),
          },
        });
        send({ jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { taskId: 5, _meta: modernMeta } });
        expect(await reply(9)).toMatchObject({
          error: {
            code: -32602,
            message: expect.stringMatching(/taskId: Invalid input: expected string, received number/),
          },
        });
        send({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: { ...modernMeta, progressToken: {} } } });
        expect(await reply(10)).toMatchObject(invalid('params._meta.progressToken must be a string or a number'));
        // Still serving, and the blank line got no answer.
        send({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: modernMeta } });
        expect(await reply(6)).toMatchObject({ result: { tools: expect.any(Array) } });
        expect(messages.filter((r) => r.id === null)).toHaveLength(1);
        expect(child.exitCode).toBeNull();
      } finally {
        child.kill();
      }
    },
  );
});
