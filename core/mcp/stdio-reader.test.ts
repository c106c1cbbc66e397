import { describe, expect, it } from 'vitest';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { AnsweringReader, answerTo } from './stdio-reader';

describe('the stdio reader', () => {
  it('passes on what the SDK parses, across chunks, and answers the rest in order', () => {
    const written: string[] = [];
    const reader = new AnsweringReader(deserializeMessage, (line) => written.push(line));
    reader.append(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":2,"me'));
    expect(reader.readMessage()).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(reader.readMessage()).toBeNull();
    reader.append(Buffer.from('thod":"tools/list","params":"x"}\r\n\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n'));
    expect(reader.readMessage()).toEqual({ jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(written.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32600, message: 'Invalid Request: params must be an object when given' },
      },
    ]);
  });

  it("answers a broken request or notification, never a client's response", () => {
    expect(answerTo('[1]')).toMatchObject({
      id: null,
      error: { message: 'Invalid Request: a message is a JSON object' },
    });
    expect(answerTo('{"jsonrpc":"2.0","method":"notifications/x","params":3}')).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
    expect(answerTo('{"jsonrpc":"2.0","id":{},"method":"ping"}')).toMatchObject({
      id: null,
      error: { message: 'Invalid Request: id must be a string or a number' },
    });
    expect(answerTo('{"jsonrpc":"2.0","id":7,"result":3}')).toBeUndefined();
  });
});
