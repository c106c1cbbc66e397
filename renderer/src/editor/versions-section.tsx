import { useMemo } from 'react';
import { diffFlows, isSameFlow, type FlowDiff } from '../../../core/editing/flow-diff';
import type { Flow } from '../../../core/model/flow';
import { useAppStore } from '../store/app-store';
import { hasUnpublishedChanges } from '../store/versions-slice';
import { useShowNode } from './use-show-node';

/** "3 nodes"; "1 edge". */
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * The flow's published versions, newest first: what the draft changed since
 * the latest (by node, each a link to it on the canvas), and for each version
 * Show (over the canvas, read-only) and Restore (the draft becomes that
 * version, as one edit that Undo takes back), as n8n's workflow history does.
 */
export function VersionsSection({ flow }: { flow: Flow }) {
  const versions = useAppStore((s) => s.versions);
  const hasChanges = useAppStore(hasUnpublishedChanges);
  const latest = versions[0];
  const { showVersion, restoreVersion } = useAppStore.getState();
  return (
    <section className="versions-section" aria-label="Versions">
      <h3>Versions</h3>
      {!latest && (
        <p className="muted">
          Not published yet: Publish makes this draft version 1, what MCP clients call. Each version is kept here.
        </p>
      )}
      {latest && hasChanges && <DraftChanges flow={flow} version={latest.version} />}
      {latest && !hasChanges && <p className="muted">The draft is what version {latest.version} is.</p>}
      <ul className="versions">
        {versions.map((v) => (
          <li key={v.version}>
            <span>
              <strong>v{v.version}</strong> <span className="muted">{new Date(v.createdAt).toLocaleString()}</span>
              {v.note ? ` · ${v.note}` : ''}
            </span>
            <span className="version-actions">
              <button className="small" onClick={() => void showVersion(v.version)}>
                Show
              </button>
              <button className="small" onClick={() => void restoreVersion(v.version)}>
                Restore
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the draft changed since `version` (the latest), as published; it follows each edit. */
export function DraftChanges({ flow, version }: { flow: Flow; version: number }) {
  const latest = useAppStore((s) => s.latest);
  const published = latest?.flowId === flow.id && latest.version === version ? latest : undefined;
  const diff = useMemo(
    () => (published && 'flow' in published ? diffFlows(published.flow, flow) : undefined),
    [published, flow],
  );
  if (published && 'error' in published)
    return (
      <p className="error">
        Version {version} could not be read: {published.error}
      </p>
    );
  if (!diff || !published || !('flow' in published)) return <p className="muted">Comparing with version {version}…</p>;
  if (isSameFlow(diff)) return <p className="muted">The draft is what version {version} is.</p>;
  return <DiffList diff={diff} from={published.flow} flow={flow} version={version} />;
}

/** More moved nodes than this are counted, not named (a Layout moves them all). */
const MOVED_NAMED = 5;

function DiffList({ diff, from, flow, version }: { diff: FlowDiff; from: Flow; flow: Flow; version: number }) {
  const showNode = useShowNode();
  // A removed node is named as it was in the version.
  const labels = new Map([...from.nodes, ...flow.nodes].map((n) => [n.id, n.label || n.id]));
  const link = (id: string) => (
    <button key={id} className="link" onClick={() => showNode(id)}>
      {labels.get(id) ?? id}
    </button>
  );
  const list = (ids: readonly string[]) => ids.map((id, i) => [i > 0 ? ', ' : '', link(id)]);
  const edges = [
    diff.edgesAdded > 0 ? `${count(diff.edgesAdded, 'edge')} added` : '',
    diff.edgesRemoved > 0 ? `${count(diff.edgesRemoved, 'edge')} removed` : '',
  ].filter(Boolean);
  return (
    <div className="draft-changes" data-testid="draft-changes">
      <p>Draft changes since version {version}, not yet what clients call:</p>
      <ul>
        {diff.changed.length > 0 && (
          <li>
            Changed:{' '}
            {diff.changed.map((c, i) => [
              i > 0 ? ', ' : '',
              link(c.id),
              <span key={`${c.id}-fields`} className="muted">
                {' '}
                ({c.fields.map((f) => f.replace(/^config\./, '')).join(', ')})
              </span>,
            ])}
          </li>
        )}
        {diff.added.length > 0 && <li>Added: {list(diff.added)}</li>}
        {/* Removed nodes are not on the canvas any more: named, not links. */}
        {diff.removed.length > 0 && <li>Removed: {diff.removed.map((id) => labels.get(id)).join(', ')}</li>}
        {diff.moved.length > 0 && (
          <li>Moved: {diff.moved.length > MOVED_NAMED ? count(diff.moved.length, 'node') : list(diff.moved)}</li>
        )}
        {edges.length > 0 && <li>Edges: {edges.join(', ')}</li>}
        {diff.fields.length > 0 && <li>Flow settings: {diff.fields.join(', ')}</li>}
      </ul>
    </div>
  );
}
