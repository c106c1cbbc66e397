import { describe, expect, it } from 'vitest';
import { nodeContext } from '../../../tests/helpers/node-context';
import { stopNode } from './definition';

describe('stop node', () => {
  it('has a default reason', () => {
    expect(stopNode.configSchema.parse({})).toEqual({ reason: 'Stopped by the flow' });
  });

  it('ends the run with its rendered reason', async () => {
    const ctx = nodeContext({ outputs: { check: 'spam' } });
    expect(await stopNode.execute?.(ctx, { reason: 'classified as {{nodes.check.output}}' })).toEqual({
      kind: 'stop',
      reason: 'classified as spam',
    });
  });
});
