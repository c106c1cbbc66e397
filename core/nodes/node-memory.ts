import { stringifyValue } from '../model/template';
import type { NodeContext } from './define-node';

/** What a node reads from memory: the last `limit` entries of a channel. */
export interface MemoryRead {
  channel: string;
  limit: number;
}

/** What a node writes to memory when it succeeds: its answer, or a fixed payload. */
export interface MemoryWrite {
  channel: string;
  mode: 'AGENT_OUTPUT' | 'STATIC';
  payload?: unknown;
}

/**
 * The messages a node's memory reads add before its prompt, one per channel
 * that has entries, oldest entry first (seed 004 gives a step the last
 * entries of each channel it reads).
 */
export function memoryMessages(ctx: Pick<NodeContext, 'memory'>, reads: readonly MemoryRead[] | undefined): string[] {
  return (reads ?? []).flatMap(({ channel, limit }) => {
    const entries = ctx.memory.read(channel, limit);
    if (entries.length === 0) return [];
    const lines = entries.map((e) => `- ${stringifyValue(e.payload)}`);
    return [
      `Memory "${channel}", the last ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, oldest first:\n${lines.join('\n')}`,
    ];
  });
}

/** Appends the node's writes after it succeeded with `output`. */
export function writeMemory(
  ctx: Pick<NodeContext, 'memory' | 'nodeId'>,
  writes: readonly MemoryWrite[] | undefined,
  output: unknown,
): void {
  for (const write of writes ?? []) {
    ctx.memory.write(write.channel, write.mode === 'AGENT_OUTPUT' ? output : (write.payload ?? null), ctx.nodeId);
  }
}
