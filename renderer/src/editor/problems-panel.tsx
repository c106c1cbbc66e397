import type { ReactNode } from 'react';
import { formatProblem, importNoteText, type Problem } from '../../../core/model/problems';
import { useAppStore } from '../store/app-store';
import { useShowNode } from './use-show-node';

/** Import problems are notes the importer left on the flow; the user dismisses them once handled. */
function dismissImportProblem(message: string): void {
  const flow = useAppStore.getState().flow;
  if (!flow) return;
  const recorded = Array.isArray(flow.metadata.importProblems) ? flow.metadata.importProblems : [];
  const remaining = recorded.filter((item) => importNoteText(item) !== message);
  useAppStore.getState().updateFlowFields({ metadata: { ...flow.metadata, importProblems: remaining } });
}

/** Problems as a list; a click on one selects its node and brings it into view. */
export function ProblemList({
  problems,
  label,
  actions,
}: {
  problems: readonly Problem[];
  label: string;
  actions?: (problem: Problem) => ReactNode;
}) {
  const showNode = useShowNode();
  return (
    <ul className="problems" aria-label={label}>
      {problems.map((problem, i) => (
        <li key={i} className={problem.severity}>
          <button
            className="link"
            onClick={() => {
              if (problem.nodeId) showNode(problem.nodeId);
            }}
          >
            {formatProblem(problem)}
          </button>
          {actions?.(problem)}
        </li>
      ))}
    </ul>
  );
}

/** Every validation problem of the draft; import notes can be dismissed once handled. */
export function ProblemsPanel() {
  const problems = useAppStore((s) => s.problems);
  if (problems.length === 0) return <p className="muted problems-empty">No problems.</p>;
  return (
    <ProblemList
      problems={problems}
      label="Problems"
      actions={(problem) =>
        problem.code === 'IMPORT_PROBLEM' && (
          <button
            className="small"
            onClick={() => dismissImportProblem(problem.message)}
            title="Fixed it, or it does not matter"
          >
            Dismiss
          </button>
        )
      }
    />
  );
}
