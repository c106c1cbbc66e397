import { randomUUID } from 'node:crypto';
import { desc, eq, or } from 'drizzle-orm';
import {
  AgentSettingsSchema,
  type AgentSettings,
  type AgentStatus,
  type AgentSummary,
  type AgentVersion,
} from '../model/agents';
import { FlowbenchError } from '../model/errors';
import { isoTime } from '../model/iso-time';
import { WRITE_TRANSACTION, type Db } from './database';
import { agentVersions, agents } from './schema';

type AgentRow = typeof agents.$inferSelect;

/** The agent library: named agents with a draft, and their published, immutable versions. */
export class AgentRepository {
  constructor(private readonly db: Db) {}

  list(): AgentSummary[] {
    return this.db
      .select()
      .from(agents)
      .orderBy(agents.name)
      .all()
      .map((row) => this.summary(row));
  }

  /** An agent by id or exact name; throws AGENT_NOT_FOUND. */
  get(ref: string): AgentSummary {
    return this.summary(this.row(ref));
  }

  private row(ref: string): AgentRow {
    const row = this.db
      .select()
      .from(agents)
      .where(or(eq(agents.id, ref), eq(agents.name, ref)))
      .get();
    if (!row) throw new FlowbenchError('AGENT_NOT_FOUND', `no agent has the id or name "${ref}"`, { agent: ref });
    return row;
  }

  private summary(row: AgentRow): AgentSummary {
    const latest = this.db
      .select()
      .from(agentVersions)
      .where(eq(agentVersions.agentId, row.id))
      .orderBy(desc(agentVersions.version))
      .get();
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      status: row.status,
      draft: row.draft,
      ...(latest
        ? { latestVersion: { id: latest.id, version: latest.version, publishedAt: isoTime(latest.createdAt) } }
        : {}),
      updatedAt: isoTime(row.updatedAt),
    };
  }

  /** Creates an agent (a draft, nothing published). The name must be unused. */
  create(input: { name: string; description?: string; draft: AgentSettings; status?: AgentStatus }): AgentSummary {
    const id = randomUUID();
    this.db.transaction(() => {
      this.assertNameFree(input.name);
      const now = Date.now();
      this.db
        .insert(agents)
        .values({
          id,
          name: input.name,
          description: input.description ?? '',
          status: input.status ?? 'active',
          draft: AgentSettingsSchema.parse(input.draft),
          createdAt: now,
          updatedAt: now,
        })
        .run();
    }, WRITE_TRANSACTION);
    return this.get(id);
  }

  private assertNameFree(name: string, except?: string): void {
    const clash = this.db.select({ id: agents.id }).from(agents).where(eq(agents.name, name)).get();
    if (clash && clash.id !== except) {
      throw new FlowbenchError('VALIDATION_ERROR', `an agent named "${name}" already exists`, { name });
    }
  }

  /** Changes an agent's name, description or draft; `reviewed` marks an imported agent as checked. */
  update(
    ref: string,
    change: { name?: string; description?: string; draft?: AgentSettings; reviewed?: boolean },
  ): AgentSummary {
    const row = this.row(ref);
    const id = row.id;
    this.db.transaction(() => {
      if (change.name !== undefined) this.assertNameFree(change.name, id);
      // An agent an import made stands in for a version the file named: until it is reviewed, that
      // version follows the draft, so what the person fixes is what the flow's steps run.
      if (row.status === 'review' && change.draft !== undefined) {
        this.db
          .update(agentVersions)
          .set({ settings: AgentSettingsSchema.parse(change.draft) })
          .where(eq(agentVersions.agentId, id))
          .run();
      }
      this.db
        .update(agents)
        .set({
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.description !== undefined ? { description: change.description } : {}),
          ...(change.draft !== undefined ? { draft: AgentSettingsSchema.parse(change.draft) } : {}),
          ...(change.reviewed ? { status: 'active' as const } : {}),
          updatedAt: Date.now(),
        })
        .where(eq(agents.id, id))
        .run();
    }, WRITE_TRANSACTION);
    return this.get(id);
  }

  /** Publishes the draft as the next version; `versionId` keeps an id a file used for it. */
  publish(ref: string, versionId: string = randomUUID()): AgentVersion {
    const row = this.row(ref);
    this.db.transaction(() => {
      const latest = this.db
        .select({ version: agentVersions.version })
        .from(agentVersions)
        .where(eq(agentVersions.agentId, row.id))
        .orderBy(desc(agentVersions.version))
        .get();
      this.db
        .insert(agentVersions)
        .values({
          id: versionId,
          agentId: row.id,
          version: (latest?.version ?? 0) + 1,
          settings: row.draft,
          createdAt: Date.now(),
        })
        .run();
    }, WRITE_TRANSACTION);
    return this.version(versionId);
  }

  /** A published version by id; throws AGENT_NOT_FOUND. */
  version(id: string): AgentVersion {
    const found = this.db
      .select({ version: agentVersions, agent: agents })
      .from(agentVersions)
      .innerJoin(agents, eq(agents.id, agentVersions.agentId))
      .where(eq(agentVersions.id, id))
      .get();
    if (!found) {
      throw new FlowbenchError('AGENT_NOT_FOUND', `no agent version has the id "${id}"`, { agentVersionId: id });
    }
    return {
      id: found.version.id,
      agentId: found.agent.id,
      agentName: found.agent.name,
      version: found.version.version,
      settings: found.version.settings,
      status: found.agent.status,
      publishedAt: isoTime(found.version.createdAt),
    };
  }

  hasVersion(id: string): boolean {
    return (
      this.db.select({ id: agentVersions.id }).from(agentVersions).where(eq(agentVersions.id, id)).get() !== undefined
    );
  }

  versions(ref: string): AgentVersion[] {
    const row = this.row(ref);
    return this.db
      .select({ id: agentVersions.id })
      .from(agentVersions)
      .where(eq(agentVersions.agentId, row.id))
      .orderBy(desc(agentVersions.version))
      .all()
      .map((v) => this.version(v.id));
  }

  /** Deletes an agent and its versions. */
  remove(ref: string): void {
    const id = this.row(ref).id;
    this.db.delete(agents).where(eq(agents.id, id)).run();
  }

  /**
   * For an import: an agent in review with one published version under the
   * file's id, unless a version with that id exists. Runs inside the import's
   * transaction, so a failed import leaves no agent behind.
   */
  ensureImported(versionId: string, name: string, draft: AgentSettings): { created: boolean; name: string } {
    if (this.hasVersion(versionId)) return { created: false, name: this.version(versionId).agentName };
    let unique = name;
    for (let n = 2; this.db.select({ id: agents.id }).from(agents).where(eq(agents.name, unique)).get(); n++) {
      unique = `${name} (${n})`;
    }
    const id = randomUUID();
    const now = Date.now();
    this.db
      .insert(agents)
      .values({ id, name: unique, description: '', status: 'review', draft, createdAt: now, updatedAt: now })
      .run();
    this.db
      .insert(agentVersions)
      .values({ id: versionId, agentId: id, version: 1, settings: draft, createdAt: now })
      .run();
    return { created: true, name: unique };
  }
}
