import { useState } from 'react';
import { toFlowbenchError } from '../../../core/model/errors';
import { coerceTextInput } from '../../../core/model/inputs';
import {
  EXPECTATION_KINDS,
  nextTestCase,
  testCaseProblems,
  type Expectation,
  type ExpectationKind,
  type TestCase,
  type TestRunSummary,
  TestCaseSchema,
} from '../../../core/model/test-cases';
import type { Parameter } from '../../../core/model/parameter';
import { api } from '../api/client';
import { useAppStore } from '../store/app-store';
import { testDrafts } from '../editor/json-drafts';
import { TestCaseInputs } from './test-case-inputs';

const KIND_LABELS: Record<ExpectationKind, string> = {
  equals: 'equals',
  contains: 'contains',
  regex: 'matches a pattern',
  json_path: 'JSON path equals',
  json_schema: 'fits a JSON schema',
  judge: 'a model judges',
};

/** A new expectation of a kind, with empty values to fill in. */
function blankExpectation(kind: ExpectationKind): Expectation {
  switch (kind) {
    case 'equals':
      return { kind, value: '' };
    case 'contains':
      return { kind, value: '' };
    case 'regex':
      return { kind, pattern: '' };
    case 'json_path':
      return { kind, path: '$.', equals: '' };
    case 'json_schema':
      return { kind, schema: { type: 'object' } };
    case 'judge':
      return { kind, criteria: '', provider: '', model: '' };
  }
}

/**
 * Why a test case cannot be saved as typed, by field path: what the host
 * will check, asked of the same schema and checks (so nothing is sent that
 * it would refuse).
 */
function draftProblems(tests: readonly TestCase[]): Map<string, string> {
  const problems = new Map<string, string>();
  tests.forEach((test, t) => {
    for (const issue of TestCaseSchema.safeParse(test).error?.issues ?? []) {
      // An expectation's problems are shown at the expectation, the rest at the field.
      const [field, index] = issue.path;
      const where = field === 'expectations' ? `expectations.${String(index)}` : String(field);
      problems.set(`tests.${t}.${where}`, issue.message);
    }
  });
  for (const problem of testCaseProblems(tests)) problems.set(problem.field, problem.message);
  return problems;
}

/**
 * The flow's test cases: named inputs with expectations, run all at once with
 * a pass/fail table, and the setting that gates publishing on them. Edits are
 * saved as the flow's `tests`; what the host would refuse (a pattern that does
 * not compile) stays on screen with the reason, unsaved, until it is fixed.
 */
export function TestsPanel() {
  const flow = useAppStore((s) => s.flow);
  const flowId = useAppStore((s) => s.flowId);
  const draft = testDrafts.useDraft(flowId ?? '');
  const [summary, setSummary] = useState<TestRunSummary | undefined>(undefined);
  const [isRunning, setRunning] = useState(false);
  const [runError, setRunError] = useState<string | undefined>(undefined);
  // `draft` holds what was typed while the host would refuse it; it goes once it can be saved.
  // Until then it stays, whatever else arrives, also while another tab is open (json-drafts.ts):
  // nothing a person typed is dropped.
  if (!flow || !flowId) return null;
  const tests = draft ?? flow.tests;
  const problems = draftProblems(tests);

  const edit = (next: TestCase[]) => {
    if (draftProblems(next).size > 0) return testDrafts.keep(flowId, next);
    testDrafts.drop(flowId);
    useAppStore.getState().updateFlowFields({ tests: next }, 'tests');
  };
  const editCase = (index: number, change: Partial<TestCase>) =>
    edit(tests.map((t, i) => (i === index ? { ...t, ...change } : t)));

  const addCase = () => {
    // The Run form's inputs, typed as the host will: a case starts from what was just tried.
    const { runInputs } = useAppStore.getState();
    const inputs: Record<string, unknown> = {};
    for (const parameter of flow.parameters) {
      const text = runInputs[parameter.name];
      if (text !== undefined && text !== '') inputs[parameter.name] = coerceTextInput(parameter, text);
    }
    edit([...tests, nextTestCase(tests, inputs)]);
  };

  const runAll = async () => {
    setRunning(true);
    setRunError(undefined);
    try {
      await useAppStore.getState().flushSaves();
      setSummary(await api.tests.run({ flowId }));
    } catch (error) {
      setRunError(toFlowbenchError(error).message);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="tests-panel" aria-label="Tests">
      <div className="run-actions">
        <button
          className="primary"
          disabled={isRunning || tests.length === 0 || problems.size > 0}
          onClick={() => void runAll()}
        >
          {isRunning ? 'Running…' : 'Run all'}
        </button>
        <button onClick={addCase}>Add test case</button>
      </div>
      <label className="field inline" htmlFor="tests-gate">
        <input
          id="tests-gate"
          type="checkbox"
          checked={flow.testsGatePublish}
          onChange={(e) => useAppStore.getState().updateFlowFields({ testsGatePublish: e.target.checked })}
        />
        <span className="field-label">Publish only when its test cases pass</span>
      </label>
      {runError && <p className="error">{runError}</p>}
      {summary && <ResultsTable summary={summary} />}
      {tests.length === 0 && (
        <p className="muted">No test cases yet. “Add test case” starts one from the Run tab’s inputs.</p>
      )}
      {tests.map((test, index) => (
        <TestCaseEditor
          key={test.id}
          test={test}
          index={index}
          parameters={flow.parameters}
          problems={problems}
          onChange={(change) => editCase(index, change)}
          onRemove={() => edit(tests.filter((_, i) => i !== index))}
        />
      ))}
    </div>
  );
}

function ResultsTable({ summary }: { summary: TestRunSummary }) {
  return (
    <section aria-label="Test results" className="test-results">
      <p>
        <strong className={summary.failed > 0 ? 'run-failed' : 'run-succeeded'}>
          {summary.passed} passed, {summary.failed} failed
        </strong>
      </p>
      <table>
        <tbody>
          {summary.results.map((result) => (
            <tr key={result.id} className={`test-${result.status}`}>
              <td>{result.name}</td>
              <td className="test-status">{result.status}</td>
              <td>
                {result.failures.map((f, i) => (
                  <div key={i} className="error">
                    {f}
                  </div>
                ))}
                {result.runId && (
                  <button
                    className="link small"
                    onClick={() => void useAppStore.getState().openRun(result.runId as string)}
                  >
                    open run
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

interface CaseProps {
  test: TestCase;
  index: number;
  parameters: readonly Parameter[];
  problems: Map<string, string>;
  onChange: (change: Partial<TestCase>) => void;
  onRemove: () => void;
}

function TestCaseEditor({ test, index, parameters, problems, onChange, onRemove }: CaseProps) {
  const id = `test-${test.id}`;
  return (
    <fieldset className="test-case" aria-label={`Test case ${test.name}`}>
      <label className="field" htmlFor={`${id}-name`}>
        <span className="field-label">Name</span>
        <input id={`${id}-name`} value={test.name} onChange={(e) => onChange({ name: e.target.value })} />
        <FieldProblem text={problems.get(`tests.${index}.name`)} />
      </label>
      <TestCaseInputs
        id={id}
        parameters={parameters}
        inputs={test.inputs}
        onChange={(inputs) => onChange({ inputs })}
      />
      <span className="field-label">Expectations</span>
      {test.expectations.map((expectation, i) => (
        <ExpectationEditor
          key={i}
          id={`${id}-e${i}`}
          expectation={expectation}
          problem={problems.get(`tests.${index}.expectations.${i}`)}
          onChange={(next) => onChange({ expectations: test.expectations.map((e, j) => (j === i ? next : e)) })}
          onRemove={() => onChange({ expectations: test.expectations.filter((_, j) => j !== i) })}
        />
      ))}
      <div className="run-actions">
        <select
          aria-label="Add an expectation"
          value=""
          onChange={(e) =>
            onChange({ expectations: [...test.expectations, blankExpectation(e.target.value as ExpectationKind)] })
          }
        >
          <option value="">add an expectation…</option>
          {EXPECTATION_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
        </select>
        <button className="small" onClick={onRemove}>
          Delete case
        </button>
      </div>
    </fieldset>
  );
}

function ExpectationEditor(props: {
  id: string;
  expectation: Expectation;
  problem: string | undefined;
  onChange: (next: Expectation) => void;
  onRemove: () => void;
}) {
  const { id, expectation: e, onChange } = props;
  return (
    <div className="expectation" data-kind={e.kind}>
      <span className="muted">{KIND_LABELS[e.kind]}</span>
      {(e.kind === 'equals' || e.kind === 'contains') && (
        <textarea
          aria-label="Expected text"
          id={id}
          value={e.value}
          onChange={(x) => onChange({ ...e, value: x.target.value })}
        />
      )}
      {e.kind === 'regex' && (
        <input
          aria-label="Pattern"
          id={id}
          value={e.pattern}
          onChange={(x) => onChange({ ...e, pattern: x.target.value })}
        />
      )}
      {e.kind === 'json_path' && (
        <>
          <input
            aria-label="JSON path"
            id={id}
            value={e.path}
            onChange={(x) => onChange({ ...e, path: x.target.value })}
          />
          <JsonField
            id={`${id}-equals`}
            label="equals (JSON)"
            value={e.equals}
            onValue={(v) => onChange({ ...e, equals: v as never })}
          />
        </>
      )}
      {e.kind === 'json_schema' && (
        <JsonField
          id={id}
          label="JSON schema"
          value={e.schema}
          isObject
          onValue={(v) => onChange({ ...e, schema: v as never })}
        />
      )}
      {e.kind === 'judge' && (
        <>
          <textarea
            aria-label="What the judge checks"
            id={id}
            value={e.criteria}
            onChange={(x) => onChange({ ...e, criteria: x.target.value })}
          />
          <input
            aria-label="Judge provider"
            placeholder="default provider"
            value={e.provider}
            onChange={(x) => onChange({ ...e, provider: x.target.value })}
          />
          <input
            aria-label="Judge model"
            placeholder="default model"
            value={e.model}
            onChange={(x) => onChange({ ...e, model: x.target.value })}
          />
        </>
      )}
      <button className="small" aria-label="Remove expectation" onClick={props.onRemove}>
        ×
      </button>
      <FieldProblem text={props.problem} />
    </div>
  );
}

/** JSON typed as text: kept as typed while it does not parse (the reason shown), handed on once it does. */
function JsonField(props: {
  id: string;
  label: string;
  value: unknown;
  isObject?: boolean;
  onValue: (value: unknown) => void;
}) {
  const [text, setText] = useState(() => JSON.stringify(props.value, null, 1));
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const change = (next: string) => {
    setText(next);
    try {
      const value = JSON.parse(next) as unknown;
      if (props.isObject && (value === null || typeof value !== 'object' || Array.isArray(value))) {
        return setProblem('expected a JSON object, like {"topic": "otters"}');
      }
      setProblem(undefined);
      props.onValue(value);
    } catch (error) {
      setProblem(`not JSON yet: ${(error as Error).message}`);
    }
  };
  return (
    <label className="field" htmlFor={props.id}>
      <span className="field-label">{props.label}</span>
      <textarea id={props.id} value={text} onChange={(e) => change(e.target.value)} spellCheck={false} />
      <FieldProblem text={problem} />
    </label>
  );
}

function FieldProblem({ text }: { text: string | undefined }) {
  return text ? <span className="field-problem error">{text}</span> : null;
}
