import { useEffect, useRef, useState } from 'react';
import { coerceTextInput, textInputProblem } from '../../../core/model/inputs';
import type { Parameter } from '../../../core/model/parameter';
import { sameJson } from '../../../core/model/same-json';
import { testInputDrafts } from '../editor/json-drafts';
import { useAppStore } from '../store/app-store';
import { RunInputField } from './run-input-field';

/** A stored input as its field shows it: text as it is (its line breaks too), anything else as JSON. */
const show = (value: unknown): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * A test case's inputs, one field per parameter as the Run form has them (a
 * ticket of several lines is typed as it is, not as a JSON string with \n).
 * A value that does not fit its parameter stays in its field, said, and is
 * not saved; inputs the flow has no parameter for are named, to remove.
 */
export function TestCaseInputs({
  id,
  parameters,
  inputs,
  onChange,
}: {
  id: string;
  parameters: readonly Parameter[];
  inputs: Record<string, unknown>;
  onChange: (inputs: Record<string, unknown>) => void;
}) {
  // What was typed that does not fit is kept by flow, case and parameter: another tab and back shows it.
  const flowId = useAppStore((s) => s.flowId) ?? '';
  const draftKey = (name: string) => `${flowId}:${id}:${name}`;
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(parameters.map((p) => [p.name, testInputDrafts.get(draftKey(p.name)) ?? show(inputs[p.name])])),
  );
  // A value changed under the field (undo, another window) shows; one that did not keeps what is typed.
  const previous = useRef(inputs);
  useEffect(() => {
    const before = previous.current;
    previous.current = inputs;
    setTexts((typed) =>
      Object.fromEntries(
        parameters.map((p) => {
          if (sameJson(before[p.name], inputs[p.name])) return [p.name, typed[p.name] ?? ''];
          // Changed under the field (undo, another window): its value shows, what was typed there goes.
          testInputDrafts.drop(`${flowId}:${id}:${p.name}`);
          return [p.name, show(inputs[p.name])];
        }),
      ),
    );
  }, [inputs, parameters, flowId, id]);
  const others = Object.keys(inputs).filter((name) => !parameters.some((p) => p.name === name));
  const change = (parameter: Parameter, text: string) => {
    setTexts((typed) => ({ ...typed, [parameter.name]: text }));
    const problem = textInputProblem(parameter, text);
    if (problem && text !== '') return testInputDrafts.keep(draftKey(parameter.name), text);
    testInputDrafts.drop(draftKey(parameter.name));
    const rest = Object.fromEntries(Object.entries(inputs).filter(([name]) => name !== parameter.name));
    onChange(text === '' ? rest : { ...rest, [parameter.name]: coerceTextInput(parameter, text) });
  };
  return (
    <fieldset className="test-inputs">
      <legend className="field-label">Inputs</legend>
      {parameters.length === 0 && <p className="muted">This flow takes no parameters.</p>}
      {parameters.map((p) => (
        <RunInputField
          key={p.name}
          idPrefix={`${id}-input`}
          parameter={p}
          text={texts[p.name]}
          problem={texts[p.name] ? textInputProblem(p, texts[p.name]) : undefined}
          onChange={(text) => change(p, text)}
        />
      ))}
      {others.length > 0 && (
        <p className="muted">
          Also gives {others.join(', ')}, which this flow has no parameter for.{' '}
          <button
            className="small"
            onClick={() =>
              onChange(
                Object.fromEntries(parameters.flatMap((p) => (p.name in inputs ? [[p.name, inputs[p.name]]] : []))),
              )
            }
          >
            Remove {others.length === 1 ? 'it' : 'them'}
          </button>
        </p>
      )}
    </fieldset>
  );
}
