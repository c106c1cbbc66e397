import { memo, useMemo } from 'react';
import { shortRunId, type StepRecord } from '../../../core/model/run';
import { errorsIn } from '../../../core/model/problems';
import { neededBy, runToBlockers } from '../../../core/model/run-to';
import { runFromLoopProblem } from '../../../core/model/loops';
import { shortConversation } from '../../../core/model/memory';
import { stringifyValue } from '../../../core/model/template';
import { dataUrl } from '../../../core/model/data-urls';
import { toolResult } from '../../../core/model/tool-result';
import { nodeRegistry } from '../../../core/nodes/registry';
import { ProblemList } from '../editor/problems-panel';
import { textInputProblem } from '../../../core/model/inputs';
import { formatCost } from '../../../core/model/pricing';
import { RecentRuns } from './run-history';
import { RunInputField } from './run-input-field';
import { RunQuestions } from './question-form';
import { ClippedText } from './clipped-text';
import { StepDetails } from './step-details';
import { NoProviderNotice } from '../providers/no-provider-notice';
import { useAppStore } from '../store/app-store';
import { stepOrigin, type StepOrigin } from '../store/run-slice';
import { flowOnCanvas } from '../store/versions-slice';

/** Test inputs, the Run button, and the live run: every step's status, output and error. */
export function RunPanel() {
  const flow = useAppStore((s) => s.flow);
  const run = useAppStore((s) => s.run);
  const inputs = useAppStore((s) => s.runInputs);
  const tokens = useAppStore((s) => s.tokens);
  const inputProblems = useAppStore((s) => s.runInputProblems);
  const isStoredRun = useAppStore((s) => s.isStoredRun);
  const problems = useAppStore((s) => s.problems);
  const { setRunInput, startRun, cancelRun } = useAppStore.getState();
  if (!flow) return null;
  const isRunning = run?.status === 'running';
  // What the engine would refuse, listed where the person is about to press Run.
  const blockers = errorsIn(problems);
  const needsModel = flow.nodes.some((n) => nodeRegistry.get(n.type)?.category === 'ai');
  return (
    <div className="run-panel" aria-label="Run">
      {needsModel && <NoProviderNotice />}
      {flow.parameters.map((p) => (
        <RunInputField
          key={p.name}
          parameter={p}
          text={inputs[p.name]}
          // A wrong value is said as it is typed; a missing one once Run was asked for.
          problem={inputProblems[p.name] ?? (inputs[p.name] ? textInputProblem(p, inputs[p.name]) : undefined)}
          onChange={(text) => setRunInput(p.name, text)}
        />
      ))}
      {blockers.length > 0 && (
        <div className="run-blockers" data-testid="run-blockers">
          <p>
            <strong>
              This flow cannot run yet: {blockers.length} problem{blockers.length === 1 ? '' : 's'} to fix
            </strong>
          </p>
          <ProblemList problems={blockers} label="What blocks the run" />
        </div>
      )}
      <RunQuestions flowId={flow.id} />
      <div className="run-actions">
        <button
          className="primary"
          disabled={isRunning || blockers.length > 0}
          title={blockers.length > 0 ? 'Fix the problems listed above first' : undefined}
          onClick={() => void startRun()}
        >
          Run
        </button>
        <RunToHere isRunning={isRunning} />
        {isRunning && <button onClick={() => void cancelRun()}>Cancel</button>}
      </div>
      {run && (
        <div className="run-result" data-testid="run-result">
          <p>
            <strong className={`run-status run-${run.status}`}>{run.status}</strong>
            {run.durationMs !== undefined && <span className="muted"> in {(run.durationMs / 1000).toFixed(2)} s</span>}
            {run.usage && (
              <span className="muted" data-testid="run-usage">
                {' '}
                · {(run.usage.inputTokens ?? 0) + (run.usage.outputTokens ?? 0)} tokens
                {run.usage.cost !== undefined ? ` · ${formatCost(run.usage.cost)}` : ''}
              </span>
            )}
          </p>
          {run.error && (
            <p className="error">
              {run.error.code}: {run.error.message}
            </p>
          )}
          {run.output?.summary && (
            <dl className="run-summary" aria-label="Run summary">
              {Object.entries(run.output.summary).map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{stringifyValue(value).slice(0, 500)}</dd>
                </div>
              ))}
            </dl>
          )}
          {isStoredRun ? (
            <p className="muted run-origin">
              A stored run from {run.trigger}
              {run.client ? ` (${run.client})` : ''}, {new Date(run.startedAt).toLocaleString()}
              {run.flowVersion !== undefined ? `, version ${run.flowVersion}` : ', the draft'}.{' '}
              <button className="small" onClick={() => useAppStore.getState().reuseRunInputs()}>
                Use its inputs
              </button>{' '}
              <button className="small" onClick={() => void useAppStore.getState().rerun()}>
                Re-run with them
              </button>
            </p>
          ) : null}
          {run.conversation && (
            <p className="muted run-origin" data-testid="run-conversation">
              In conversation <code title={run.conversation}>{shortConversation(run.conversation)}</code>: its
              per-conversation memory channels held only what that conversation wrote.
            </p>
          )}
          {run.reuse && (
            <p className="muted run-origin" data-testid="run-reuse">
              Run from <strong>{nodeOf(run.reuse.fromNodeId)?.label || run.reuse.fromNodeId}</strong>, reusing{' '}
              {run.reuse.nodeIds.length} output{run.reuse.nodeIds.length === 1 ? '' : 's'} of run{' '}
              <code>{shortRunId(run.reuse.runId)}</code>.
            </p>
          )}
          {run.toNodeId && (
            <p className="muted run-origin" data-testid="run-to">
              Run to <strong>{nodeOf(run.toNodeId)?.label || run.toNodeId}</strong>: it and the nodes it needs ran,
              nothing after it.
            </p>
          )}
          <SelectedStep />
          {run.status !== 'running' && <RunFromHere />}
          {run.status !== 'running' && (run.toNodeId ? <StepGave nodeId={run.toNodeId} /> : <ClientResult />)}
          {run.status !== 'running' && (
            <p className="run-from">
              <button className="small" onClick={() => void useAppStore.getState().saveRunAsTestCase(run.id)}>
                Save as a test case
              </button>{' '}
              <span className="muted">its inputs, for the Tests tab to run again and check</span>
            </p>
          )}
          <ol className="steps">
            {run.steps.map((step) => (
              <StepItem
                key={`${step.nodeId}#${step.iteration ?? 1}`}
                step={step}
                origin={stepOrigin(step, canvasNodeOf(step.nodeId), run)}
                tokens={step.status === 'running' ? tokens[step.nodeId] : undefined}
              />
            ))}
          </ol>
        </div>
      )}
      <RecentRuns />
    </div>
  );
}

/**
 * "Run to here" (n8n's Execute step, Langflow's run of one component): with
 * one node selected, runs it and the nodes it needs with the form's inputs,
 * and nothing after it, so a step is tried without what follows it.
 */
function RunToHere({ isRunning }: { isRunning: boolean }) {
  const selected = useAppStore((s) => (s.selectedNodes.length === 1 ? s.selectedNodes[0] : undefined));
  const flow = useAppStore((s) => s.flow);
  const problems = useAppStore((s) => s.problems);
  const node = flow?.nodes.find((n) => n.id === selected);
  if (!flow || !node || nodeRegistry.get(node.type)?.isResult) return null;
  // Only its part of the flow must be set up: what comes after it may still be half built.
  const blockers = runToBlockers(errorsIn(problems), neededBy(flow, node.id) ?? new Set());
  return (
    <button
      disabled={isRunning || blockers.length > 0}
      title={
        blockers.length > 0
          ? `Fix first: ${blockers.map((p) => p.message).join('; ')}`
          : 'Runs this node and the nodes it needs with these inputs; nothing after it'
      }
      onClick={() => void useAppStore.getState().runToHere(node.id)}
    >
      Run to “{node.label || node.id}”
    </button>
  );
}

/** What the node a run went to gave: that run's answer, as the output node did not run. */
function StepGave({ nodeId }: { nodeId: string }) {
  const step = useAppStore((s) => s.run?.steps.findLast((st) => st.nodeId === nodeId));
  if (!step || step.output === undefined) return null;
  return (
    <section className="client-result" aria-label="What the node gave">
      <h3>What “{nodeOf(nodeId)?.label || nodeId}” gave</h3>
      <ClippedText text={stringifyValue(step.output)} />
    </section>
  );
}

/**
 * "Run from here": with one node selected, runs it and what depends on it,
 * reusing the outputs above it from the run shown (Rivet's and ComfyUI's
 * partial re-run), so an upstream model is not asked again.
 */
function RunFromHere() {
  const selected = useAppStore((s) => (s.selectedNodes.length === 1 ? s.selectedNodes[0] : undefined));
  const run = useAppStore((s) => s.run);
  const flow = useAppStore((s) => s.flow);
  // Once per flow and selection, not on every event of a run.
  const inLoop = useMemo(
    () =>
      flow && selected && flow.edges.some((e) => e.loop)
        ? runFromLoopProblem(
            flow.nodes.map((n) => n.id),
            flow.edges,
            selected,
          )
        : undefined,
    [flow, selected],
  );
  if (!run) return null;
  const node = selected ? nodeOf(selected) : undefined;
  if (!node) {
    return <p className="muted run-from-hint">Select a node to run from it, reusing this run's outputs above it.</p>;
  }
  if (inLoop) return <p className="muted run-from-hint">No run from here: {inLoop}.</p>;
  return (
    <p className="run-from">
      <button onClick={() => void useAppStore.getState().runFromHere(node.id)}>
        Run from “{node.label || node.id}”
      </button>{' '}
      <span className="muted">runs it and what depends on it; the nodes above reuse this run's outputs</span>
    </p>
  );
}

/**
 * One step in the list. Memoised: the run record keeps an unchanged step's
 * object, so an event redraws only the step it changed (a 200-node run sends
 * a hundred events a second).
 */
const StepItem = memo(function StepItem({
  step,
  origin,
  tokens,
}: {
  step: StepRecord;
  origin: StepOrigin | undefined;
  tokens: string | undefined;
}) {
  return (
    <li className={`step step-${step.status}`}>
      <StepName nodeId={step.nodeId} />
      {step.iteration && <span className="step-pass"> pass {step.iteration}</span>}{' '}
      <span className="step-status">{step.status}</span>
      {origin && <span className="step-reused"> {origin}</span>}
      {step.durationMs !== undefined && <span className="muted"> {step.durationMs} ms</span>}
      {step.error && (
        <div className="error">
          {step.error.code}: {step.error.message}
        </div>
      )}
      {tokens && <pre className="tokens">{tokens}</pre>}
      {step.output !== undefined && step.status === 'succeeded' && !isResultNode(step.nodeId) && (
        <pre className="step-output">{stringifyValue(step.output).slice(0, 2000)}</pre>
      )}
    </li>
  );
});

/**
 * The selected node's step in the run shown, in full. Keyed by the node: what
 * was folded, unfolded or shown more of in one node's output does not carry
 * over to the next node's.
 */
function SelectedStep() {
  const selected = useAppStore((s) => (s.selectedNodes.length === 1 ? s.selectedNodes[0] : undefined));
  return selected ? <StepDetails key={selected} nodeId={selected} /> : null;
}

const nodeOf = (nodeId: string) => useAppStore.getState().flow?.nodes.find((n) => n.id === nodeId);
/** The node as the canvas shows it: the run's own flow when the draft has changed since (read-only). */
const canvasNodeOf = (nodeId: string) => flowOnCanvas(useAppStore.getState())?.nodes.find((n) => n.id === nodeId);

/** The result node's output is shown once, as a client receives it (ClientResult), not as Flowbench stores it. */
const isResultNode = (nodeId: string) => {
  const node = nodeOf(nodeId);
  return node !== undefined && nodeRegistry.get(node.type)?.isResult === true;
};

/** A step by the node's label, as on the canvas, with its id beside it. */
function StepName({ nodeId }: { nodeId: string }) {
  const label = nodeOf(nodeId)?.label;
  return label ? (
    <span className="step-name">
      {label} <code className="muted">{nodeId}</code>
    </span>
  ) : (
    <span className="step-name">{nodeId}</span>
  );
}

/** The run's result exactly as an MCP client calling the flow as a tool receives it. */
function ClientResult() {
  const flow = useAppStore((s) => s.flow);
  const run = useAppStore((s) => s.run);
  if (!flow || !run) return null;
  const result = toolResult(flow, run);
  return (
    <section className="client-result" aria-label="What an MCP client receives">
      <h3>What an MCP client receives{result.isError ? <span className="error"> (isError)</span> : null}</h3>
      {result.structuredContent ? (
        <>
          <small className="muted">structuredContent</small>
          <ClippedText text={JSON.stringify(result.structuredContent, null, 2)} />
        </>
      ) : (
        result.content.map((item, i) =>
          item.type === 'text' ? (
            <div key={i}>
              <small className="muted">content[{i}] · text</small>
              <ClippedText text={item.text} />
            </div>
          ) : (
            <div key={i} className="data-url">
              <small className="muted">
                content[{i}] · image ({item.mimeType})
              </small>
              <img src={dataUrl(item.mimeType, item.data)} alt={`the ${item.mimeType} image a client receives`} />
            </div>
          ),
        )
      )}
    </section>
  );
}
