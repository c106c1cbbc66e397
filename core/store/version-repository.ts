import { and, desc, eq, sql } from 'drizzle-orm';
import { FlowbenchError } from '../model/errors';
import { isoTime } from '../model/iso-time';
import type { Flow } from '../model/flow';
import type { VersionSummary } from '../model/summaries';
import { errorsIn, hasErrors } from '../model/problems';
import type { Statement } from 'better-sqlite3';
import { WRITE_TRANSACTION, type Db, type FlowbenchDatabase } from './database';
import { flowNotFound, type FlowRepository } from './flow-repository';
import { flowVersions, flows } from './schema';

export type { VersionSummary } from '../model/summaries';

/** What MCP serves for one flow: its newest published version, and whether the flow is enabled. */
export interface PublishedFlow {
  flowId: string;
  version: number;
  enabled: boolean;
  snapshot: Flow;
  publishedAt: number;
}

/** Numbered, immutable published versions of flows. */
export class VersionRepository {
  private readonly db: Db;
  private readonly sqlite: FlowbenchDatabase['sqlite'];
  // Asked by MCP calls (at most every CATALOGUE_FRESH_MS) and the catalogue watcher: prepared once.
  private signatureQuery: Statement | undefined;
  private dataVersionQuery: Statement | undefined;

  private signatureCache: { key: string; signature: string } | undefined;
  private summaries: ReturnType<typeof prepareSummaries> | undefined;

  constructor(
    private readonly database: FlowbenchDatabase,
    private readonly flows: FlowRepository,
  ) {
    this.db = database.db;
    this.sqlite = database.sqlite;
  }

  /**
   * Publishes the current draft as the next version. Any validation error
   * refuses it with the problems; nothing is written then.
   */
  publish(flowId: string, note = ''): VersionSummary {
    return this.db.transaction(() => {
      const draft = this.flows.get(flowId);
      const { flow, problems } = this.flows.validate(draft);
      if (!flow || hasErrors(problems)) {
        const errors = errorsIn(problems);
        throw new FlowbenchError(
          'VALIDATION_ERROR',
          `flow "${draft.name}" cannot be published: ${errors.length} problem${errors.length === 1 ? '' : 's'}`,
          {
            problems: errors,
          },
        );
      }
      this.assertLibraryAllows(draft.name, flow);
      // Draft tool names are unique, but a renamed flow's old published version may still serve a name.
      const clash = this.latestPublished().find((p) => p.flowId !== flowId && p.snapshot.tool.name === flow.tool.name);
      if (clash) {
        throw new FlowbenchError(
          'VALIDATION_ERROR',
          `flow "${draft.name}" cannot be published: flow "${clash.snapshot.name}" still serves the tool name "${flow.tool.name}"`,
          {
            problems: [
              {
                code: 'DUPLICATE_TOOL_NAME',
                severity: 'error',
                field: 'tool.name',
                message: `the published flow "${clash.snapshot.name}" serves "${flow.tool.name}"; rename one of them and publish it`,
              },
            ],
          },
        );
      }
      const latest = this.db
        .select({ max: sql<number | null>`max(${flowVersions.version})` })
        .from(flowVersions)
        .where(eq(flowVersions.flowId, flowId))
        .get();
      const version = (latest?.max ?? 0) + 1;
      const createdAt = Date.now();
      this.db.insert(flowVersions).values({ flowId, version, snapshot: flow, note, createdAt }).run();
      this.database.catalogueEpoch.value++;
      return summaryOf({ flowId, version, note, createdAt, toolName: flow.tool.name, nodeCount: flow.nodes.length });
    }, WRITE_TRANSACTION);
  }

  list(flowId: string): VersionSummary[] {
    if (!this.flows.exists(flowId)) throw flowNotFound(flowId);
    this.summaries ??= prepareSummaries(this.db);
    return this.summaries.all({ flowId }).map(summaryOf);
  }

  get(flowId: string, version: number): Flow {
    const row = this.db
      .select({ snapshot: flowVersions.snapshot })
      .from(flowVersions)
      .where(and(eq(flowVersions.flowId, flowId), eq(flowVersions.version, version)))
      .get();
    if (!row) throw new FlowbenchError('FLOW_NOT_FOUND', `flow ${flowId} has no published version ${version}`);
    return row.snapshot;
  }

  /** Refuses a publish the library forbids: an unknown agent or a call cycle, or an agent still in review. */
  private assertLibraryAllows(name: string, flow: Flow): void {
    const problems = this.flows.libraryCheck(flow);
    const errors = errorsIn(problems);
    if (errors.length > 0) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `flow "${name}" cannot be published: ${errors.map((p) => p.message).join('; ')}`,
        { problems: errors },
      );
    }
    const review = problems.filter((p) => p.code === 'AGENT_NEEDS_REVIEW');
    if (review.length > 0) {
      throw new FlowbenchError(
        'AGENT_NOT_REVIEWED',
        `flow "${name}" cannot be published yet: ${review.map((p) => p.message).join('; ')}`,
        { problems: review },
      );
    }
  }

  /** A flow's newest published version, if it has one. */
  latest(flowId: string): { version: number; snapshot: Flow } | undefined {
    return this.db
      .select({ version: flowVersions.version, snapshot: flowVersions.snapshot })
      .from(flowVersions)
      .where(eq(flowVersions.flowId, flowId))
      .orderBy(desc(flowVersions.version))
      .get();
  }

  /** The newest published version of every flow that has one, enabled or not. */
  latestPublished(): PublishedFlow[] {
    const rows = this.db
      .select({
        flowId: flowVersions.flowId,
        version: flowVersions.version,
        snapshot: flowVersions.snapshot,
        createdAt: flowVersions.createdAt,
        enabled: flows.toolEnabled,
      })
      .from(flowVersions)
      .innerJoin(flows, eq(flows.id, flowVersions.flowId))
      .where(
        sql`${flowVersions.version} = (select max(v.version) from flow_versions v where v.flow_id = ${flowVersions.flowId})`,
      )
      .all();
    return rows.map((r) => ({
      flowId: r.flowId,
      version: r.version,
      enabled: r.enabled,
      snapshot: r.snapshot,
      publishedAt: r.createdAt,
    }));
  }

  /**
   * A cheap fingerprint of what MCP clients see (ids, versions, enabled flags),
   * compared by the server to know when to send tools/list_changed.
   */
  catalogueSignature(): string {
    // Asked often (MCP calls, the catalogue watcher): recomputed only when some process changed the database's
    // catalogue (another connection's commit moves data_version; ours bump the epoch).
    // A prepared PRAGMA: `sqlite.pragma()` prepares it again on every call, which cost more than the check.
    this.dataVersionQuery ??= this.sqlite.prepare('PRAGMA data_version').pluck();
    const key = `${String(this.dataVersionQuery.get())}:${this.database.catalogueEpoch.value}`;
    if (this.signatureCache?.key === key) return this.signatureCache.signature;
    this.signatureQuery ??= this.sqlite.prepare(`
      select group_concat(id || ':' || version || ':' || enabled, ',') from (
        select f.id as id, f.tool_enabled as enabled, max(v.version) as version
        from flows f join flow_versions v on v.flow_id = f.id
        group by f.id order by f.id)`);
    const signature = (this.signatureQuery.pluck().get() as string | null) ?? '';
    this.signatureCache = { key, signature };
    return signature;
  }
}

/** A flow's versions, newest first; asked each time the editor opens a flow, so prepared once. */
function prepareSummaries(db: Db) {
  return db
    .select({
      flowId: flowVersions.flowId,
      version: flowVersions.version,
      note: flowVersions.note,
      createdAt: flowVersions.createdAt,
      // Read inside SQLite: a summary needs two fields, not every snapshot parsed into objects.
      toolName: sql<string>`json_extract(${flowVersions.snapshot}, '$.tool.name')`,
      nodeCount: sql<number>`json_array_length(${flowVersions.snapshot}, '$.nodes')`,
    })
    .from(flowVersions)
    .where(eq(flowVersions.flowId, sql.placeholder('flowId')))
    .orderBy(desc(flowVersions.version))
    .prepare();
}

/** A stored version as listed: its creation time in ISO 8601. */
function summaryOf(row: Omit<VersionSummary, 'createdAt'> & { createdAt: number }): VersionSummary {
  return { ...row, createdAt: isoTime(row.createdAt) };
}
