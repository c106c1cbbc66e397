import { useReactFlow } from '@xyflow/react';
import { formatProblem } from '../../../core/model/problems';
import { useAppStore } from '../store/app-store';

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
        </li>
      ))}
    </ul>
  );
}
