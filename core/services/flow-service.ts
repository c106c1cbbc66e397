import { randomUUID } from 'node:crypto';
import type { AppliedChanges, FlowDetail } from '../api/contract';
import { draftComparer } from '../editing/flow-diff';
import { exportFileName, type ExportFormat } from '../formats/export-formats';
import { loadExporters } from '../formats/lazy';
import { isLayoutOnly, type ChangeSet } from '../model/change-set';
import { FlowbenchError } from '../model/errors';
import { FlowSchema, type Flow } from '../model/flow';
import { MAX_FLOW_FILE_BYTES, megabytes } from '../model/limits';
import type { FlowSummary } from '../model/summaries';
import { flowNotFound, type FlowRepository } from '../store/flow-repository';
import type { VersionRepository } from '../store/version-repository';

/** A tool name made from a flow's name: lower case, runs of other characters as `_`. */
export function toolNameSlug(name: string): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'flow';
  return slug.slice(0, 100);
}

/** Latest versions kept parsed for comparing drafts with (see publishedChanges); a host edits a few flows at a time. */
const KEPT_VERSIONS = 16;

/** What the editor and the CLI do to flows beyond storing them: create, copy, open, edit, export. */
export class FlowService {
  /** By flow id: a comparer of drafts with that flow's latest version (see publishedChanges). */
  private readonly comparers = new Map<string, { version: number; isPublished: (draft: Flow) => boolean }>();
  /** By flow id: the answer for the draft as it was at `updatedAt`, so lists do not load unchanged flows again. */
  private readonly answers = new Map<string, { updatedAt: string; version: number; changed: boolean }>();

  constructor(
    private readonly flows: FlowRepository,
    private readonly versions: VersionRepository,
  ) {}

  /** Every flow's summary, as lists show it. */
  list(): FlowSummary[] {
    return this.flows.list().map((summary) => this.publishedChanges(summary));
  }

  /** An empty flow under a free tool name made from its name. */
  create(name: string): Flow {
    return this.flows.create({
      schemaVersion: 1,
      id: randomUUID(),
      name,
      tool: { name: this.flows.freeToolName(toolNameSlug(name)) },
      parameters: [],
      nodes: [],
      edges: [],
    });
  }

  /** A copy named "<name> (copy)" under a free tool name. */
  duplicate(id: string): Flow {
    const original = this.flows.get(id);
    return this.flows.create({
      ...original,
      id: randomUUID(),
      name: `${original.name} (copy)`,
      tool: { ...original.tool, name: this.flows.freeToolName(original.tool.name) },
    });
  }

  /** The flow's summary as lists show it. Throws FLOW_NOT_FOUND. */
  summary(id: string): FlowSummary {
    const found = this.flows.list(id)[0];
    if (!found) throw flowNotFound(id);
    return this.publishedChanges(found);
  }

  /**
   * The summary with `hasUnpublishedChanges` decided by content: the store
   * says a draft edited after its latest version was published has changes;
   * here such a draft is compared with that version, as the editor's versions
   * list does, so an edit taken back or a version restored is not a change
   * to publish. `draft`: the flow, when the caller has it loaded.
   */
  private publishedChanges(summary: FlowSummary, draft?: Flow): FlowSummary {
    const version = summary.publishedVersion;
    if (!summary.hasUnpublishedChanges || version === undefined) return summary;
    const known = this.answers.get(summary.id);
    let changed = known?.updatedAt === summary.updatedAt && known.version === version ? known.changed : undefined;
    if (changed === undefined) {
      changed = !this.isPublished(summary.id, version, draft);
      this.answers.set(summary.id, { updatedAt: summary.updatedAt, version, changed });
    }
    return changed ? summary : { ...summary, hasUnpublishedChanges: false };
  }

  /** Whether the draft is what the version is; false when the version cannot be read (the versions list says why). */
  private isPublished(id: string, version: number, draft: Flow | undefined): boolean {
    let kept = this.comparers.get(id);
    if (kept?.version !== version) {
      let published: Flow;
      try {
        published = this.version(id, version);
      } catch {
        return false;
      }
      kept = { version, isPublished: draftComparer(published) };
      this.comparers.delete(id);
      this.comparers.set(id, kept);
      // A map keeps insertion order: the first key is the one set longest ago.
      if (this.comparers.size > KEPT_VERSIONS) this.comparers.delete(this.comparers.keys().next().value as string);
    }
    return kept.isPublished(draft ?? this.flows.get(id));
  }

  /** A flow as the editor opens it; `withProblems: false` leaves validation to the editor (big flows). */
  detail(id: string, withProblems = true): FlowDetail {
    const { flow, revs } = this.flows.load(id);
    const libraryProblems = this.flows.libraryCheck(flow);
    const problems = withProblems ? [...this.flows.validate(flow).problems, ...libraryProblems] : [];
    const versions = this.versions.list(id);
    const summary = this.flows.list(id)[0];
    const hasUnpublishedChanges = summary ? this.publishedChanges(summary, flow).hasUnpublishedChanges : false;
    return { flow, revs, problems, libraryProblems, enabled: flow.tool.enabled, versions, hasUnpublishedChanges };
  }

  /**
   * A published version of a flow, with the fields added to flows since it
   * was published at their defaults (a version from before sticky notes has
   * none). Throws FLOW_NOT_FOUND when the flow or the version is not there.
   */
  version(id: string, version: number): Flow {
    if (!this.flows.exists(id)) throw flowNotFound(id);
    const snapshot = this.versions.get(id, version);
    const parsed = FlowSchema.safeParse(snapshot);
    if (parsed.success) return parsed.data;
    const why = parsed.error.issues[0];
    throw new FlowbenchError(
      'VALIDATION_ERROR',
      `version ${version} of flow "${id}" cannot be read: ${why?.path.join('.') || 'the flow'}: ${why?.message}`,
    );
  }

  /** Applies an editor change set; the flow's problems come back unless it only moved or renamed nodes. */
  applyChanges(id: string, changes: ChangeSet): AppliedChanges {
    const result = this.flows.applyChanges(id, changes);
    // Two saves in one millisecond leave the same updatedAt: the answer kept for the first is not the second's.
    this.answers.delete(id);
    // Moves and renames happen on every drag: they cannot change problems, so skip the full validation.
    if (isLayoutOnly(changes)) return result;
    const flow = this.flows.get(id);
    const libraryProblems = this.flows.libraryCheck(flow);
    return { ...result, problems: [...this.flows.validate(flow).problems, ...libraryProblems], libraryProblems };
  }

  /** The flow's text in an export format, the file name to offer it under, and what the format left out. */
  async exportFile(id: string, format: ExportFormat): Promise<{ text: string; fileName: string; leftOut: string[] }> {
    // Loaded first: the flow and its published version are then read together, as one state.
    const { exportFlowText, leftOutOf } = await loadExporters();
    const flow = this.flows.get(id);
    const text = exportFlowText(flow, format, this.versions.list(id)[0]?.version);
    // What cannot be imported again is not written: the two limits are one.
    const size = Buffer.byteLength(text);
    if (size > MAX_FLOW_FILE_BYTES) {
      throw new FlowbenchError(
        'FILE_TOO_LARGE',
        `the export of "${flow.name}" would be ${megabytes(size)}; flow files are limited to ${megabytes(MAX_FLOW_FILE_BYTES)}, so it could not be imported again`,
        { size, limit: MAX_FLOW_FILE_BYTES },
      );
    }
    return { text, fileName: exportFileName(flow.tool.name, format), leftOut: leftOutOf(flow, format) };
  }
}
