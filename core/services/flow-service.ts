import { randomUUID } from 'node:crypto';
import type { AppliedChanges, FlowDetail } from '../api/contract';
import { exportFlowText, leftOutOf } from '../formats/export';
import { exportFileName, type ExportFormat } from '../formats/export-formats';
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

/** What the editor and the CLI do to flows beyond storing them: create, copy, open, edit, export. */
export class FlowService {
  constructor(
    private readonly flows: FlowRepository,
    private readonly versions: VersionRepository,
  ) {}

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
    return found;
  }

  /** A flow as the editor opens it; `withProblems: false` leaves validation to the editor (big flows). */
  detail(id: string, withProblems = true): FlowDetail {
    const { flow, revs } = this.flows.load(id);
    const libraryProblems = this.flows.libraryCheck(flow);
    const problems = withProblems ? [...this.flows.validate(flow).problems, ...libraryProblems] : [];
    const versions = this.versions.list(id);
    const hasUnpublishedChanges = this.flows.list(id)[0]?.hasUnpublishedChanges ?? false;
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
    // Moves and renames happen on every drag: they cannot change problems, so skip the full validation.
    if (isLayoutOnly(changes)) return result;
    const flow = this.flows.get(id);
    const libraryProblems = this.flows.libraryCheck(flow);
    return { ...result, problems: [...this.flows.validate(flow).problems, ...libraryProblems], libraryProblems };
  }

  /** The flow's text in an export format, the file name to offer it under, and what the format left out. */
  exportFile(id: string, format: ExportFormat): { text: string; fileName: string; leftOut: string[] } {
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
