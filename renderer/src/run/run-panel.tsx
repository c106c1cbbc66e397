import { errorsIn } from '../../../core/model/problems';
import { stringifyValue } from '../../../core/model/template';
import { ProblemList } from '../editor/problems-panel';
import { useAppStore } from '../store/app-store';

/** Test inputs, the Run button, and the live run: every step's status, output and error. */
export function RunPanel() {
  const flow = useAppStore((s) => s.flow);
  const run = useAppStore((s) => s.run);
  const inputs = useAppStore((s) => s.runInputs);
  const tokens = useAppStore((s) => s.tokens);
  const problems = useAppStore((s) => s.problems);
  const { setRunInput, startRun, cancelRun } = useAppStore.getState();
  if (!flow) return null;
  const isRunning = run?.status === 'running';
  // What the engine would refuse, listed where the person is about to press Run.
  const blockers = errorsIn(problems);
  const output = run?.output;
  return (
    <div className="run-panel" aria-label="Run">
      {flow.parameters.map((p) => (
        <label className="field" key={p.name} htmlFor={`run-input-${p.name}`}>
          <span className="field-label">
            {p.name}{' '}
            <small>
              ({p.type}
              {p.required ? '' : ', optional'})
            </small>
          </span>
          <input
            id={`run-input-${p.name}`}
            value={inputs[p.name] ?? ''}
            placeholder={p.default === undefined ? p.description : stringifyValue(p.default)}
            onChange={(e) => setRunInput(p.name, e.target.value)}
          />
        </label>
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
      <div className="run-actions">
        <button
          className="primary"
          disabled={isRunning || blockers.length > 0}
          title={blockers.length > 0 ? 'Fix the problems listed above first' : undefined}
          onClick={() => void startRun()}
        >
          Run
        </button>
        {isRunning && <button onClick={() => void cancelRun()}>Cancel</button>}
      </div>
      {run && (
        <div className="run-result" data-testid="run-result">
          <p>
            <strong className={`run-status run-${run.status}`}>{run.status}</strong>
            {run.durationMs !== undefined && <span className="muted"> in {(run.durationMs / 1000).toFixed(2)} s</span>}
          </p>
          {run.error && (
            <p className="error">
              {run.error.code}: {run.error.message}
            </p>
          )}
          {output?.kind === 'return_values' && output.values.map((v) => <pre key={v.id}>{v.text}</pre>)}
          {output?.kind === 'structured' && <pre>{JSON.stringify(output.data, null, 2)}</pre>}
          <ol className="steps">
            {run.steps.map((step) => (
              <li key={step.nodeId} className={`step step-${step.status}`}>
                <span className="step-id">{step.nodeId}</span> <span className="step-status">{step.status}</span>
                {step.durationMs !== undefined && <span className="muted"> {step.durationMs} ms</span>}
                {step.error && (
                  <div className="error">
                    {step.error.code}: {step.error.message}
                  </div>
                )}
                {step.status === 'running' && tokens[step.nodeId] && (
                  <pre className="tokens">{tokens[step.nodeId]}</pre>
                )}
                {step.output !== undefined && step.status === 'succeeded' && (
                  <pre className="step-output">{stringifyValue(step.output).slice(0, 2000)}</pre>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
