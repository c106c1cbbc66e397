import { useEffect, useMemo, useState } from 'react';
import { diffFlows, isSameFlow, type FlowDiff } from '../../../core/editing/flow-diff';
import type { Flow } from '../../../core/model/flow';
import { api } from '../api/client';
import { counted } from '../counted';
import { useAppStore } from '../store/app-store';
import { hasUnpublishedChanges } from '../store/versions-slice';
import { useShowNode } from './use-show-node';

/**
 * The flow's published versions, newest first: what the draft changed since
 * the latest (by node, each a link to it on the canvas), and for each version
 * Show (over the canvas, read-only) and Restore (the draft becomes that
 * version, as one edit that Undo takes back), as n8n's workflow history does.
 */
export function VersionsSection({ flow }: { flow: Flow }) {
  const versions = useAppStore((s) => s.versions);
  const hasChanges = useAppStore(hasUnpublishedChanges);
  // The version whose changes since the one before it are open, one at a time.
  const [opened, setOpened] = useState<number>();
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
        {versions.map((v, i) => {
          const before = versions[i + 1]?.version;
          return (
            <li key={v.version}>
              <span>
                <strong>v{v.version}</strong> <span className="muted">{new Date(v.createdAt).toLocaleString()}</span>
                {v.note ? ` · ${v.note}` : ''}
              </span>
              <span className="version-actions">
                {before !== undefined && (
                  <button
                    className="small"
                    aria-expanded={opened === v.version}
                    title={`What version ${v.version} changed since version ${before}`}
                    onClick={() => setOpened(opened === v.version ? undefined : v.version)}
                  >
                    Changes
                  </button>
                )}
                <button className="small" onClick={() => void showVersion(v.version)}>
                  Show
                </button>
                <button className="small" onClick={() => void restoreVersion(v.version)}>
                  Restore
                </button>
              </span>
              {opened === v.version && before !== undefined && (
                <VersionChanges flowId={flow.id} before={before} version={v.version} />
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** What the draft changed since `version` (the latest), as published; it follows each edit. */
export function DraftChanges({ flow, version }: { flow: Flow; version: number }) {
  const latest = useAppStore((s) => s.latest);
  const published = latest?.flowId === flow.id && latest.version === version ? latest : undefined;
  // Shown again after a read that failed: read again (nothing to do when it is read).
  useEffect(() => void useAppStore.getState().readLatest(), []);
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
  return (
    <DiffList
      diff={diff}
      from={published.flow}
      to={flow}
      heading={`Draft changes since version ${version}, not yet what clients call:`}
      testId="draft-changes"
      isOnCanvas
    />
  );
}

/** What a version changed since the one before it, read from both as published. */
function VersionChanges({ flowId, before, version }: { flowId: string; before: number; version: number }) {
  const [read, setRead] = useState<{ from: Flow; to: Flow } | { error: string }>();
  useEffect(() => {
    let isCurrent = true;
    Promise.all([api.flows.version({ id: flowId, version: before }), api.flows.version({ id: flowId, version })]).then(
      ([from, to]) => isCurrent && setRead({ from, to }),
      (error: unknown) => isCurrent && setRead({ error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      isCurrent = false;
    };
  }, [flowId, before, version]);
  const diff = useMemo(() => (read && 'from' in read ? diffFlows(read.from, read.to) : undefined), [read]);
  if (read && 'error' in read) return <p className="error version-changes">Could not compare: {read.error}</p>;
  if (!diff || !read || !('from' in read))
    return <p className="muted version-changes">Comparing with version {before}…</p>;
  if (isSameFlow(diff))
    return <p className="muted version-changes">The same as version {before}: published again unchanged.</p>;
  return (
    <DiffList
      diff={diff}
      from={read.from}
      to={read.to}
      heading={`Changes since version ${before}:`}
      testId="version-changes"
    />
  );
}

/** More moved nodes than this are counted, not named (a Layout moves them all). */
const MOVED_NAMED = 5;

/**
 * A diff by node, then edges and the flow's settings. `isOnCanvas`: `to` is
 * the draft on the canvas, and the nodes it has are links to them there;
 * between two versions they are names.
 */
function DiffList(props: {
  diff: FlowDiff;
  from: Flow;
  to: Flow;
  heading: string;
  testId: string;
  isOnCanvas?: boolean;
}) {
  const { diff, from, to, isOnCanvas = false } = props;
  const showNode = useShowNode();
  // A removed node is named as it was before.
  const labels = new Map([...from.nodes, ...to.nodes].map((n) => [n.id, n.label || n.id]));
  const link = (id: string) =>
    isOnCanvas ? (
      <button key={id} className="link" onClick={() => showNode(id)}>
        {labels.get(id) ?? id}
      </button>
    ) : (
      <span key={id}>{labels.get(id) ?? id}</span>
    );
  const list = (ids: readonly string[]) => ids.map((id, i) => [i > 0 ? ', ' : '', link(id)]);
  const edges = [
    diff.edgesAdded > 0 ? `${counted(diff.edgesAdded, 'edge')} added` : '',
    diff.edgesRemoved > 0 ? `${counted(diff.edgesRemoved, 'edge')} removed` : '',
  ].filter(Boolean);
  return (
    <div className={isOnCanvas ? 'draft-changes' : 'draft-changes version-changes'} data-testid={props.testId}>
      <p>{props.heading}</p>
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
          <li>Moved: {diff.moved.length > MOVED_NAMED ? counted(diff.moved.length, 'node') : list(diff.moved)}</li>
        )}
        {edges.length > 0 && <li>Edges: {edges.join(', ')}</li>}
        {diff.fields.length > 0 && <li>Flow settings: {diff.fields.join(', ')}</li>}
      </ul>
    </div>
  );
}
