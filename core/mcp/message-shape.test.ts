import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCResultResponse } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { maybeErrorResponse, maybeNotification, maybeResultResponse } from './message-shape';

const GUARDS = [
  ['notification', isJSONRPCNotification, maybeNotification],
  ['result response', isJSONRPCResultResponse, maybeResultResponse],
  ['error response', isJSONRPCErrorResponse, maybeErrorResponse],
] as const;

const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } };
const notification = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } };
const result = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'hi' }] } };
const error = { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params' } };

/** Every object made of these keys, each with one of these values: well formed messages, and every way to get one wrong. */
function* shapes(): Generator<unknown> {
  const keys = ['jsonrpc', 'id', 'method', 'params', 'result', 'error', 'other'] as const;
  const values: Record<(typeof keys)[number], unknown[]> = {
    jsonrpc: ['2.0', '1.0', undefined],
    id: [7, 'a', 1.5, null, undefined],
    method: ['tools/call', 3, undefined],
    params: [{}, { _meta: {} }, [], undefined],
    result: [{}, { content: [] }, 'x', undefined],
    error: [{ code: 1, message: 'm' }, { code: 'x' }, undefined],
    other: [1, undefined],
  };
  for (let mask = 0; mask < 1 << keys.length; mask++) {
    const present = keys.filter((_, i) => mask & (1 << i));
    // Every combination of values for the keys present.
    const combos = present.reduce<Record<string, unknown>[]>(
      (acc, key) => acc.flatMap((partial) => values[key].map((value) => ({ ...partial, [key]: value }))),
      [{}],
    );
    yield* combos;
  }
}

describe('the quick refusals in front of the SDK message guards', () => {
  it.each(GUARDS)('never refuse a %s the SDK accepts', (_, guard, maybe) => {
    let accepted = 0;
    const odd: unknown[] = [
      null,
      undefined,
      7,
      'x',
      [],
      [request],
      request,
      notification,
      result,
      error,
      { jsonrpc: '2.0', error: { code: 1, message: 'no id' } },
      // A key not enumerable, or inherited, is not one zod's for…in sees as its own.
      Object.defineProperty({ ...notification }, 'id', { value: 7, enumerable: false }),
      Object.assign(Object.create({ id: 7 }) as object, notification),
      Object.assign(Object.create({ method: 'x' }) as object, result),
    ];
    for (const value of [...odd, ...shapes()]) {
      if (!guard(value)) continue;
      accepted++;
      expect(maybe(value), JSON.stringify(value)).toBe(true);
    }
    // The shapes include well formed messages of each kind: the property was put to the test.
    expect(accepted).toBeGreaterThan(2);
  });

  it('refuse at once what the SDK asks of every tools/call: a request as any response or notification, a result as a notification or an error', () => {
    expect(maybeNotification(request)).toBe(false);
    expect(maybeResultResponse(request)).toBe(false);
    expect(maybeErrorResponse(request)).toBe(false);
    expect(maybeNotification(result)).toBe(false);
    expect(maybeErrorResponse(result)).toBe(false);
    expect(maybeNotification(error)).toBe(false);
    expect(maybeResultResponse(error)).toBe(false);
  });
});
