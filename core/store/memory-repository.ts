import { and, desc, eq, isNotNull, isNull, lt, max, sql } from 'drizzle-orm';
import type { ChannelSettings, ChannelSummary, MemoryEntry, MemoryPort } from '../model/memory';
import { WRITE_TRANSACTION, type Db } from './database';
import { memoryEntries } from './schema';
import { isoTime } from '../model/iso-time';

type EntryRow = typeof memoryEntries.$inferSelect;
const DAY_MS = 86_400_000;

/**
 * Whose entries of a per-conversation channel: a conversation's, or, for a
 * run given none, that run's own.
 */
export type EntryScope = { conversation: string } | { runId: string };

const entryOf = (row: EntryRow): MemoryEntry => ({
  id: row.id,
  channel: row.channel,
  payload: row.payload,
  runId: row.runId,
  nodeId: row.nodeId,
  ...(row.flowVersion !== null ? { flowVersion: row.flowVersion } : {}),
  ...(row.conversation !== null ? { conversation: row.conversation } : {}),
  createdAt: isoTime(row.createdAt),
});

/** The memory channels of every flow: entries kept across runs, pruned by each channel's retention. */
export class MemoryRepository {
  constructor(private readonly db: Db) {}

  /** The channels of a flow that have entries or settings, with their counts. */
  channels(flowId: string, settings: readonly ChannelSettings[]): ChannelSummary[] {
    const rows = this.db
      .select({
        channel: memoryEntries.channel,
        entries: sql<number>`count(*)`,
        last: max(memoryEntries.createdAt),
      })
      .from(memoryEntries)
      .where(eq(memoryEntries.flowId, flowId))
      .groupBy(memoryEntries.channel)
      .all();
    const byName = new Map(rows.map((r) => [r.channel, r]));
    const names = [...new Set([...settings.map((s) => s.id), ...rows.map((r) => r.channel)])];
    return names.map((channel) => {
      const row = byName.get(channel);
      const declared = settings.find((s) => s.id === channel);
      return {
        channel,
        entries: row?.entries ?? 0,
        ...(declared ? { settings: declared } : {}),
        ...(row?.last ? { lastWrittenAt: isoTime(row.last) } : {}),
      };
    });
  }

  /** The last `limit` entries of a channel (only those of `scope` when given), oldest first. */
  entries(flowId: string, channel: string, limit: number, scope?: EntryScope): MemoryEntry[] {
    return this.db
      .select()
      .from(memoryEntries)
      .where(and(eq(memoryEntries.flowId, flowId), eq(memoryEntries.channel, channel), scopeFilter(scope)))
      .orderBy(desc(memoryEntries.id))
      .limit(limit)
      .all()
      .reverse()
      .map(entryOf);
  }

  /** Removes a channel's entries, or every channel's (only a conversation's, when given); returns how many went. */
  clear(flowId: string, channel?: string, conversation?: string): number {
    const where = and(
      eq(memoryEntries.flowId, flowId),
      channel === undefined ? undefined : eq(memoryEntries.channel, channel),
      conversation === undefined ? undefined : eq(memoryEntries.conversation, conversation),
    );
    return this.db.delete(memoryEntries).where(where).run().changes;
  }

  /** Appends an entry and applies the channel's retention, in one transaction. */
  append(
    entry: Omit<MemoryEntry, 'id' | 'createdAt'> & { flowId: string },
    settings: ChannelSettings | undefined,
    now = Date.now(),
  ): void {
    this.db.transaction(() => {
      this.db
        .insert(memoryEntries)
        .values({
          ...entry,
          flowVersion: entry.flowVersion ?? null,
          conversation: entry.conversation ?? null,
          createdAt: now,
        })
        .run();
      if (settings) this.prune(entry.flowId, settings, now);
    }, WRITE_TRANSACTION);
  }

  private prune(flowId: string, settings: ChannelSettings, now: number): void {
    const inChannel = and(eq(memoryEntries.flowId, flowId), eq(memoryEntries.channel, settings.id));
    if (settings.retentionDays !== undefined) {
      this.db
        .delete(memoryEntries)
        .where(and(inChannel, lt(memoryEntries.createdAt, now - settings.retentionDays * DAY_MS)))
        .run();
    }
    if (settings.retentionVersions !== undefined) {
      // A draft's runs (no version) count as the newest, so they are always kept.
      const newest = this.db
        .select({ version: max(memoryEntries.flowVersion) })
        .from(memoryEntries)
        .where(and(inChannel, isNotNull(memoryEntries.flowVersion)))
        .get()?.version;
      if (newest !== null && newest !== undefined) {
        this.db
          .delete(memoryEntries)
          .where(and(inChannel, lt(memoryEntries.flowVersion, newest - settings.retentionVersions + 1)))
          .run();
      }
    }
  }

  /**
   * One run's view: reads and writes of its flow's channels, each write
   * pruned by the flow's settings; a per-conversation channel reads only the
   * run's conversation (or, given none, the run's own entries).
   */
  port(run: {
    flowId: string;
    runId: string;
    flowVersion?: number;
    conversation?: string;
    settings: readonly ChannelSettings[];
  }): MemoryPort {
    // Worked out when a node reads, not when every run starts: most runs (an MCP client's call) read no memory.
    const scopeOf = (channel: string): EntryScope | undefined => {
      if (!run.settings.some((s) => s.id === channel && s.perConversation)) return undefined;
      return run.conversation !== undefined ? { conversation: run.conversation } : { runId: run.runId };
    };
    return {
      read: (channel, limit) => this.entries(run.flowId, channel, limit, scopeOf(channel)),
      write: (channel, payload, nodeId) =>
        this.append(
          {
            flowId: run.flowId,
            channel,
            payload,
            runId: run.runId,
            nodeId,
            ...(run.flowVersion !== undefined ? { flowVersion: run.flowVersion } : {}),
            ...(run.conversation !== undefined ? { conversation: run.conversation } : {}),
          },
          run.settings.find((s) => s.id === channel),
        ),
    };
  }
}

const scopeFilter = (scope: EntryScope | undefined) =>
  scope === undefined
    ? undefined
    : 'conversation' in scope
      ? eq(memoryEntries.conversation, scope.conversation)
      : and(isNull(memoryEntries.conversation), eq(memoryEntries.runId, scope.runId));
