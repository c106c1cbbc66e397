import { useReactFlow } from '@xyflow/react';
import { formatProblem, importNoteText } from '../../../core/model/problems';
import { useAppStore } from '../store/app-store';

/** Import problems are notes the importer left on the flow; the user dismisses them once handled. */
function dismissImportProblem(message: string): void {
  const flow = useAppStore.getState().flow;
  if (!flow) return;
  const recorded = Array.isArray(flow.metadata.importProblems) ? flow.metadata.importProblems : [];
  const remaining = recorded.filter((item) => importNoteText(item) !== message);
  useAppStore.getState().updateFlowFields({ metadata: { ...flow.metadata, importProblems: remaining } });
}

/** Every validation problem of the draft; a click selects and centres the node. */
export function ProblemsPanel() {
  const problems = useAppStore((s) => s.problems);
  const { fitView } = useReactFlow();
  if (problems.length === 0) return <p className="muted problems-empty">No problems.</p>;
  return (
    <ul className="problems" aria-label="Problems">
      {problems.map((problem, i) => (
        <li key={i} className={problem.severity}>
          <button
            className="link"
            onClick={() => {
              if (!problem.nodeId) return;
              useAppStore.getState().setSelection([problem.nodeId], []);
              void fitView({ nodes: [{ id: problem.nodeId }], duration: 300, maxZoom: 1.2 });
            }}
          >
            {formatProblem(problem)}
          </button>
          {problem.code === 'IMPORT_PROBLEM' && (
            <button
              className="small"
              onClick={() => dismissImportProblem(problem.message)}
              title="Fixed it, or it does not matter"
            >
              Dismiss
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
