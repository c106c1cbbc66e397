import { useCallback, useState } from 'react';
import {
  shortConversation,
  withChannelRules,
  type ChannelSettings,
  type ChannelView,
} from '../../../core/model/memory';
import { stringifyValue } from '../../../core/model/template';
import { api } from '../api/client';
import { useAppStore } from '../store/app-store';
import { useListing } from '../use-listing';

/**
 * The flow's memory channels: what each holds (latest entries), which nodes
 * read and write it, how long it keeps entries, and a Clear button. Entries
 * change with every run, so the list loads again after each run the editor sees.
 */
export function MemorySection({ flowId }: { flowId: string }) {
  const lastRun = useAppStore((s) => (s.run?.status === 'running' ? undefined : s.run?.id));
  // lastRun is in the dependencies on purpose: a new callback makes useListing load again after each run.
  const load = useCallback(() => api.memory.show({ flowId }), [flowId, lastRun]);
  const { items, message, act } = useListing(load);
  const channels = items?.channels ?? [];
  return (
    <section className="memory-section" aria-label="Memory">
      <h3>Memory</h3>
      <p className="muted">
        Channels keep entries across runs: an LLM or agent node reads the last ones before its prompt and writes its
        answer after it (its Memory reads and writes).
      </p>
      {message && (
        <p className="error" role="alert">
          {message}
        </p>
      )}
      {items && channels.length === 0 && <p className="muted">No node reads or writes memory yet.</p>}
      {channels.map((view) => (
        <Channel
          key={view.channel}
          view={view}
          onClear={() => void act(() => api.memory.clear({ flowId, channel: view.channel }))}
        />
      ))}
    </section>
  );
}

function Channel({ view, onClear }: { view: ChannelView; onClear: () => void }) {
  const flow = useAppStore((s) => s.flow);
  const [isConfirming, setConfirming] = useState(false);
  const settings = flow?.memory.channels.find((c) => c.id === view.channel);
  const perConversation = settings?.perConversation === true;
  /** Sets one rule (undefined removes it); the channel is declared on the flow while it has a rule. */
  const setRule = <K extends keyof ChannelSettings>(key: K, value: ChannelSettings[K] | undefined) => {
    if (!flow) return;
    const channels = withChannelRules(flow.memory.channels, view.channel, { [key]: value });
    useAppStore.getState().updateFlowFields({ memory: { channels } }, `memory.${view.channel}.${key}`);
  };
  const rule = (key: 'retentionVersions' | 'retentionDays', label: string) => (
    <label className="field" htmlFor={`memory-${view.channel}-${key}`}>
      <span className="field-label">{label}</span>
      <input
        id={`memory-${view.channel}-${key}`}
        type="number"
        min={key === 'retentionDays' ? 0 : 1}
        placeholder="no limit"
        value={settings?.[key] ?? ''}
        onChange={(e) => {
          const n = Number(e.target.value);
          if (e.target.value === '') setRule(key, undefined);
          else if (Number.isFinite(n) && n >= (key === 'retentionDays' ? 0 : 1)) setRule(key, Math.round(n));
        }}
      />
    </label>
  );
  return (
    <details className="memory-channel" data-channel={view.channel}>
      <summary>
        <code>{view.channel}</code>{' '}
        <span className="muted">
          {view.entries} entr{view.entries === 1 ? 'y' : 'ies'}
          {perConversation ? ' · per conversation' : ''} · read by {view.readers.join(', ') || 'no node'} · written by{' '}
          {view.writers.join(', ') || 'no node'}
        </span>
      </summary>
      <div className="memory-rules">
        {rule('retentionVersions', 'Keep entries of the last N published versions')}
        {rule('retentionDays', 'Keep entries for N days')}
      </div>
      <label className="inline memory-per-conversation">
        <input
          type="checkbox"
          checked={perConversation}
          onChange={(e) => setRule('perConversation', e.target.checked || undefined)}
        />
        Per conversation: a run reads only what runs of its conversation wrote (a chat in the Chat tab,{' '}
        <code>--conversation</code>); a run without one, only what it wrote itself
      </label>
      {view.recent.length > 0 && (
        <ol className="memory-entries" aria-label={`Entries of ${view.channel}`}>
          {view.recent.map((entry) => (
            <li key={entry.id}>
              <span className="muted">
                {new Date(entry.createdAt).toLocaleString()} · {entry.nodeId}
                {entry.flowVersion !== undefined ? ` · v${entry.flowVersion}` : ''}
                {entry.conversation !== undefined && (
                  <span className="memory-conversation" title={entry.conversation}>
                    {' '}
                    · {shortConversation(entry.conversation)}
                  </span>
                )}
              </span>
              <pre>{stringifyValue(entry.payload).slice(0, 2000)}</pre>
            </li>
          ))}
        </ol>
      )}
      {view.entries > 0 &&
        (isConfirming ? (
          <p className="memory-clear">
            Remove all {view.entries} entries of <code>{view.channel}</code>?{' '}
            <button
              className="danger"
              onClick={() => {
                setConfirming(false);
                onClear();
              }}
            >
              Clear
            </button>{' '}
            <button onClick={() => setConfirming(false)}>Keep</button>
          </p>
        ) : (
          <button onClick={() => setConfirming(true)}>Clear {view.channel}…</button>
        ))}
    </details>
  );
}
