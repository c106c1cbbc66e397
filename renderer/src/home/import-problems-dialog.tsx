import { useEffect, useRef } from 'react';
import { formatProblem, type Problem } from '../../../core/model/problems';

/** Why a file was not imported, every problem listed; it stays until the person closes it. */
export function ImportProblemsDialog(props: {
  fileName: string;
  message: string;
  problems: readonly (Problem | { message: string })[];
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  return (
    <dialog ref={dialog} className="name-dialog" aria-label="Not imported" onClose={props.onClose}>
      <h2>{props.fileName} was not imported</h2>
      <p>{props.message}</p>
      {props.problems.length > 0 && (
        <ul className="publish-warnings">
          {props.problems.map((p, i) => (
            <li key={i}>{'code' in p ? formatProblem(p) : p.message}</li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button autoFocus className="primary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
