import { z } from 'zod';
import { FlowbenchError } from './errors';
import { cutText } from './cut-text';

/**
 * Memory: named channels of a flow that keep entries across its runs (seed
 * 004's shared channels). A node reads the last entries of a channel into its
 * messages and writes its answer, or a fixed value, to one.
 */

export const CHANNEL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
export const ChannelNameSchema = z
  .string()
  .regex(CHANNEL_NAME_PATTERN, 'a channel name is 1–128 letters, digits, _ . or -');

/**
 * A conversation: the runs that share a per-conversation channel's entries
 * (Langflow's session id, n8n's memory session key). The editor's Chat tab
 * gives each chat one; `flowbench run --conversation` and the API take one.
 */
export const ConversationSchema = z
  .string()
  .regex(CHANNEL_NAME_PATTERN, 'a conversation is 1–128 letters, digits, _ . or -');

/** A conversation as lists show it: a chat's is `chat-` and a uuid, whose first characters tell chats apart. */
export const shortConversation = (conversation: string): string =>
  conversation.length > 16 ? `${cutText(conversation, 13)}…` : conversation;

/** How long a channel keeps its entries; without a rule, entries stay until cleared. */
export const ChannelSettingsSchema = z.lazy(() =>
  z.object({
    id: ChannelNameSchema,
    /** Entries written by runs of the last N published versions (a draft's runs count as the newest). */
    retentionVersions: z.number().int().min(1).max(10_000).optional(),
    /** Entries younger than N days. */
    retentionDays: z.number().min(0).max(36_500).optional(),
    /**
     * A run reads only the entries written in its own conversation; a run
     * given none reads only what it wrote itself (each run a conversation).
     */
    perConversation: z.boolean().optional(),
  }),
);

export const MemorySettingsSchema = z.lazy(() =>
  z.object({ channels: z.array(ChannelSettingsSchema).max(100).default([]) }),
);

export type ChannelSettings = z.infer<typeof ChannelSettingsSchema>;
type ChannelRules = Omit<ChannelSettings, 'id'>;

/**
 * The flow's channel settings with `change` made to channel `id` (a key set
 * to undefined removes that rule); a channel left with no rule is no longer
 * declared, as one never set.
 */
export function withChannelRules(
  channels: readonly ChannelSettings[],
  id: string,
  change: { [K in keyof ChannelRules]?: ChannelRules[K] | undefined },
): ChannelSettings[] {
  const next: ChannelSettings = { ...(channels.find((c) => c.id === id) ?? { id }) };
  for (const [key, value] of Object.entries(change) as [keyof ChannelRules, unknown][]) {
    if (value === undefined || value === false) delete next[key];
    else Object.assign(next, { [key]: value });
  }
  const kept = Object.keys(next).length > 1;
  if (!channels.some((c) => c.id === id)) return kept ? [...channels, next] : [...channels];
  return channels.flatMap((c) => (c.id !== id ? [c] : kept ? [next] : []));
}
export type MemorySettings = z.infer<typeof MemorySettingsSchema>;

export interface MemoryEntry {
  id: number;
  channel: string;
  payload: unknown;
  /** The run and node that wrote it. */
  runId: string;
  nodeId: string;
  /** The published version the run ran; absent for a draft's run. */
  flowVersion?: number;
  /** The conversation of the run that wrote it, when it had one. */
  conversation?: string;
  createdAt: string;
}

/** A channel as lists show it. */
export interface ChannelSummary {
  channel: string;
  entries: number;
  settings?: ChannelSettings;
  lastWrittenAt?: string;
}

/** A channel with its latest entries, as the editor and `flowbench memory` show it. */
export interface ChannelView extends ChannelSummary {
  /** Nodes that read or write it. */
  readers: string[];
  writers: string[];
  /** Its last entries, oldest first. */
  recent: MemoryEntry[];
}

export interface FlowMemory {
  flowId: string;
  flowName: string;
  channels: ChannelView[];
}

/** The memory of one run's flow, as nodes reach it. */
export interface MemoryPort {
  /** The last `limit` entries of a channel, oldest first. */
  read(channel: string, limit: number): MemoryEntry[];
  /** Appends an entry, then drops what the channel's retention no longer keeps. */
  write(channel: string, payload: unknown, nodeId: string): void;
}

/** For runs without a store (engine tests): a node that uses memory fails and says why. */
export const NO_MEMORY: MemoryPort = {
  read: () => {
    throw noMemory();
  },
  write: () => {
    throw noMemory();
  },
};

const noMemory = () =>
  new FlowbenchError('NODE_NOT_RUNNABLE', 'memory channels need a Flowbench database; this run has none');
