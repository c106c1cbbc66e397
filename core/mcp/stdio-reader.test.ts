import { describe, expect, it } from 'vitest';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { AnsweringReader, refusalOf } from './stdio-reader';

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
    expect(refusalOf('[1]')).toMatchObject({
      answer: { id: null, error: { message: 'Invalid Request: a message is a JSON object' } },
    });
    expect(refusalOf('{"jsonrpc":"2.0","method":"notifications/x","params":3}')).toMatchObject({
      answer: { id: null, error: { code: -32600 } },
    });
    expect(refusalOf('{"jsonrpc":"2.0","id":{},"method":"ping"}')).toMatchObject({
      answer: { id: null, error: { message: 'Invalid Request: id must be a string or a number' } },
    });
    expect(refusalOf('{"jsonrpc":"2.0","id":{},"result":3}')).toEqual({ settle: undefined });
  });

  it('hands the SDK a broken response to a request of ours as an error response to it, saying what was wrong', () => {
    const written: string[] = [];
    const reader = new AnsweringReader(deserializeMessage, (line) => written.push(line));
    const broken = [
      ['{"jsonrpc":"2.0","id":7,"result":3}', 'its result must be an object'],
      ['{"jsonrpc":"2.0","id":"q","result":["x"]}', 'its result must be an object'],
      ['{"jsonrpc":"2.0","id":8,"error":{"code":"x","message":"m"}}', 'its error.code must be an integer'],
      ['{"jsonrpc":"2.0","id":9,"error":{"code":1}}', 'its error.message must be a string'],
      ['{"jsonrpc":"2.0","id":10,"result":{},"error":{"code":1,"message":"m"}}', 'it has both a result and an error'],
      ['{"jsonrpc":"1.0","id":11,"result":{}}', 'jsonrpc must be "2.0"'],
    ] as const;
    reader.append(Buffer.from(broken.map(([line]) => `${line}\n`).join('')));
    for (const [line, problem] of broken) {
      expect(reader.readMessage()).toEqual({
        jsonrpc: '2.0',
        id: (JSON.parse(line) as { id: unknown }).id,
        error: { code: -32600, message: `Invalid response: ${problem}`, data: { invalidResponse: problem } },
      });
    }
    expect(reader.readMessage()).toBeNull();
    // A response is never answered.
    expect(written).toEqual([]);
  });
});
