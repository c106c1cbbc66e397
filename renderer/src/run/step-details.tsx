import { formatCost } from '../../../core/model/pricing';
import { shortRunId, type StepRecord } from '../../../core/model/run';
import { stringifyValue } from '../../../core/model/template';
import { toFlowbenchError } from '../../../core/model/errors';
import type { ToolCallRecord } from '../../../core/model/tools';
import { api } from '../api/client';
import { ClippedText } from './clipped-text';
import { JsonValue } from './json-value';
import { readWhenWritten } from '../read-when-written';
import { useAppStore } from '../store/app-store';
import { stepOrigin } from '../store/run-slice';
import { flowOnCanvas, readOnlyShown } from '../store/versions-slice';
import { canPin } from '../../../core/editing/deactivate';
import type { PinnedOutput } from '../../../core/model/flow';

/**
 * Everything the run kept of the selected node's step: the exact input and
 * messages the model got, the output (text, or JSON as a tree), the error,
 * attempts, times, tokens and cost, each with a copy button. While the step
 * runs, the model's tokens stream in here.
 */
export function StepDetails({ nodeId }: { nodeId: string }) {
  // A loop runs a node more than once: its last pass, as the canvas shows it.
  const step = useAppStore((s) => s.run?.steps.findLast((st) => st.nodeId === nodeId));
  const tokens = useAppStore((s) => s.tokens[nodeId]);
  const shown = useAppStore((s) => flowOnCanvas(s)?.nodes.find((n) => n.id === nodeId));
  const run = useAppStore((s) => s.run);
  if (!step) return <p className="muted">This node has no step in the run shown.</p>;
  const origin = stepOrigin(step, shown, run);
  const logged = shown?.type === 'code' ? consoleOf(step.input) : undefined;
  const input = logged ? logged.rest : step.input;
  return (
    <section className="step-details" aria-label="Step details">
      <h3>
        Step <code>{nodeId}</code>
        {step.iteration && <span className="step-pass"> pass {step.iteration}</span>}:{' '}
        <span className={`step-status run-${step.status}`}>{step.status}</span>
        {origin && <span className="step-reused"> {origin}</span>}
      </h3>
      {origin === 'passed over' && (
        <p className="muted">Deactivated: it handed on what came into it instead of running.</p>
      )}
      <PinOutput nodeId={nodeId} step={step} />
      <Facts step={step} />
      {step.retries?.map((retry, i) => (
        <p key={i} className="muted step-retry">
          Attempt {i + 1} failed, retried: {retry.code}: {retry.message}
        </p>
      ))}
      {step.error && (
        <p className="error">
          {step.retries?.length ? `Attempt ${step.retries.length + 1}: ` : ''}
          {step.error.code}: {step.error.message}
        </p>
      )}
      {step.warnings && step.warnings.length > 0 && (
        <ul className="step-warnings" aria-label="What the provider said">
          {step.warnings.map((warning) => (
            <li key={warning} className="warning-text">
              The provider says: {warning}
            </li>
          ))}
        </ul>
      )}
      {step.childRunId && <ChildRun runId={step.childRunId} />}
      {step.toolCalls && step.toolCalls.length > 0 && (
        <Block title="Tool calls" text={() => JSON.stringify(step.toolCalls, null, 2)}>
          <ol className="tool-calls" aria-label="Tool calls">
            {step.toolCalls.map((call) => (
              <ToolCallItem key={call.id} call={call} />
            ))}
          </ol>
        </Block>
      )}
      {step.status === 'running' && tokens !== undefined && (
        // Whole, not clipped: what streams in last is what the person watches.
        <Block title="Streaming" text={tokens}>
          <pre>{tokens}</pre>
        </Block>
      )}
      {step.messages && step.messages.length > 0 && (
        <Block title="Messages sent and received" text={() => JSON.stringify(step.messages, null, 2)}>
          {step.messages.map((m, i) => (
            <div key={i} className="message">
              <small className="muted">{m.role}</small>
              {m.content && <ClippedText text={m.content} />}
              {m.toolCalls?.map((c) => (
                <pre key={c.id} className="muted">
                  calls {c.name}({JSON.stringify(c.arguments)})
                </pre>
              ))}
            </div>
          ))}
        </Block>
      )}
      {logged && (
        <Block title="Console" text={logged.lines.join('\n')}>
          <ClippedText className="step-console" label="Console" text={logged.lines.join('\n')} />
        </Block>
      )}
      {input !== undefined && (
        <Block title="Resolved input" text={() => stringifyValue(input)}>
          <JsonValue value={input} />
        </Block>
      )}
      {step.output !== undefined && (
        <Block title="Output" text={() => stringifyValue(step.output)}>
          <JsonValue value={step.output} />
        </Block>
      )}
    </section>
  );
}

/**
 * A code node's console lines (kept in its step's input beside its values,
 * core/nodes/code), shown as a console of their own rather than as one more
 * field of the input.
 */
function consoleOf(input: unknown): { lines: string[]; rest: Record<string, unknown> } | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const { console: lines, ...rest } = input as Record<string, unknown>;
  if (!Array.isArray(lines) || !lines.every((line) => typeof line === 'string')) return undefined;
  return { lines, rest };
}

/** One tool call: which tool, its arguments, and its result or error; a call still running says so. */
function ToolCallItem({ call }: { call: ToolCallRecord }) {
  const state = call.error ? 'failed' : call.durationMs === undefined ? 'running' : 'succeeded';
  return (
    <li className={`tool-call run-${state}`} aria-label={`Tool call ${call.tool}`}>
      <div>
        <code>
          {call.server ? `${call.server}/` : ''}
          {call.tool}
        </code>{' '}
        <span className="muted">{call.durationMs === undefined ? 'running…' : `${call.durationMs} ms`}</span>
      </div>
      <small className="muted">arguments</small>
      <JsonValue value={call.arguments} />
      {call.error ? (
        <p className="error">
          {call.error.code}: {call.error.message}
        </p>
      ) : (
        call.result !== undefined && (
          <>
            <small className="muted">result</small>
            <JsonValue value={call.result} />
          </>
        )
      )}
    </li>
  );
}

/** The run a flow node started for the flow it called: a link that opens it over that flow. */
function ChildRun({ runId }: { runId: string }) {
  const open = async () => {
    try {
      useAppStore.getState().openRunOf(await readWhenWritten(() => api.runs.get({ id: runId })));
    } catch (error) {
      useAppStore.getState().notify(toFlowbenchError(error).message);
    }
  };
  return (
    <p className="step-child-run">
      Ran the called flow as run <code>{shortRunId(runId)}</code>{' '}
      <button className="small" onClick={() => void open()}>
        Open that run
      </button>
    </p>
  );
}

function Facts({ step }: { step: StepRecord }) {
  const facts: [string, string][] = [['attempts', String(step.attempts)]];
  if (step.startedAt) facts.push(['started', new Date(step.startedAt).toLocaleTimeString()]);
  if (step.durationMs !== undefined) facts.push(['took', `${step.durationMs} ms`]);
  if (step.usage?.model)
    facts.push(['model', `${step.usage.provider ? `${step.usage.provider} · ` : ''}${step.usage.model}`]);
  if (step.usage) facts.push(['tokens', `${step.usage.inputTokens ?? '?'} in, ${step.usage.outputTokens ?? '?'} out`]);
  if (step.usage?.cost !== undefined) facts.push(['cost', formatCost(step.usage.cost)]);
  return (
    <dl className="facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Pins what the step gave as its node's output, as n8n pins data: runs
 * started here then take it instead of running the node (a model not asked
 * again while what follows is built); Unpin lets it run again. On the draft
 * only, for a node a run does not always need to run (not the input or output).
 */
function PinOutput({ nodeId, step }: { nodeId: string; step: StepRecord }) {
  const node = useAppStore((s) => s.flow?.nodes.find((n) => n.id === nodeId));
  const isReadOnly = useAppStore((s) => readOnlyShown(s) !== undefined);
  if (!node || isReadOnly || !canPin(node) || step.status !== 'succeeded' || step.output === undefined) return null;
  const { updateNode } = useAppStore.getState();
  if (node.pin)
    return (
      <p className="run-from">
        <button className="small" onClick={() => updateNode(node.id, { pin: null })}>
          Unpin its output
        </button>{' '}
        <span className="muted">runs started here take the pinned output instead of running it</span>
      </p>
    );
  return (
    <p className="run-from">
      <button className="small" onClick={() => updateNode(node.id, { pin: { output: step.output as PinnedOutput } })}>
        Pin this output
      </button>{' '}
      <span className="muted">later runs started here take it instead of running the node</span>
    </p>
  );
}

/**
 * A titled block with a copy button; `text` is what is copied (and shown when
 * there are no children), made only when copied when it is a function: a
 * megabyte output's JSON was made again at every render.
 */
function Block({
  title,
  text,
  children,
}: {
  title: string;
  text: string | (() => string);
  children?: React.ReactNode;
}) {
  const textOf = () => (typeof text === 'string' ? text : text());
  return (
    <div className="step-block">
      <div className="step-block-head">
        <strong>{title}</strong>
        <button
          className="small"
          aria-label={`Copy ${title.toLowerCase()}`}
          onClick={() =>
            void navigator.clipboard
              ?.writeText(textOf())
              .then(() => useAppStore.getState().notify(`${title} copied`))
              .catch(() => useAppStore.getState().notify('The browser did not allow copying'))
          }
        >
          Copy
        </button>
      </div>
      {children ?? <ClippedText text={textOf()} />}
    </div>
  );
}
