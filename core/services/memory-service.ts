import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { ChannelView, FlowMemory } from '../model/memory';
import type { FlowRepository } from '../store/flow-repository';
import type { MemoryRepository } from '../store/memory-repository';

type ChannelUse = { channel: string }[];
const usesOf = (flow: Flow, key: 'memoryReads' | 'memoryWrites', channel: string) =>
  flow.nodes
    .filter((n) => ((n.config[key] as ChannelUse | undefined) ?? []).some((u) => u.channel === channel))
    .map((n) => n.id);

/** Memory channels per flow: what they hold, who uses them, and clearing them. */
export class MemoryService {
  constructor(
    private readonly flows: FlowRepository,
    private readonly memory: MemoryRepository,
  ) {}

  /** Every channel of the flow (declared, used by a node, or holding entries), or only `channel`. */
  show(flowRef: string, options: { channel?: string; limit?: number } = {}): FlowMemory {
    const { flow, summaries, names } = this.channels(flowRef, options.channel);
    const channels = names.map((channel): ChannelView => ({
      ...(summaries.find((s) => s.channel === channel) ?? { channel, entries: 0 }),
      readers: usesOf(flow, 'memoryReads', channel),
      writers: usesOf(flow, 'memoryWrites', channel),
      recent: this.memory.entries(flow.id, channel, options.limit ?? 20),
    }));
    return { flowId: flow.id, flowName: flow.name, channels };
  }

  /** Removes the entries of one channel, or of all (only a conversation's, when given); the flow's settings stay. */
  clear(flowRef: string, channel?: string, conversation?: string): { removed: number } {
    const { flow } = this.channels(flowRef, channel);
    return { removed: this.memory.clear(flow.id, channel, conversation) };
  }

  /** The flow and its channel names (only `channel`, which must be one); CHANNEL_NOT_FOUND otherwise. */
  private channels(flowRef: string, channel: string | undefined) {
    const flow = this.flows.get(this.flows.resolve(flowRef).id);
    const used = flow.nodes.flatMap((n) =>
      (['memoryReads', 'memoryWrites'] as const).flatMap((key) =>
        ((n.config[key] as ChannelUse | undefined) ?? []).map((u) => u.channel),
      ),
    );
    const summaries = this.memory.channels(flow.id, flow.memory.channels);
    const names = [...new Set([...summaries.map((s) => s.channel), ...used])];
    if (channel === undefined) return { flow, summaries, names };
    if (!names.includes(channel)) {
      throw new FlowbenchError(
        'CHANNEL_NOT_FOUND',
        `flow "${flow.name}" has no memory channel "${channel}" (its channels: ${names.join(', ') || 'none'})`,
        { channel },
      );
    }
    return { flow, summaries, names: [channel] };
  }
}
