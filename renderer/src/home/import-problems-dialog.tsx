import { formatProblem, type Problem } from '../../../core/model/problems';
import { useModalDialog } from '../use-modal-dialog';

/** Why a file was not imported, every problem listed; it stays until the person closes it. */
export function ImportProblemsDialog(props: {
  fileName: string;
  message: string;
  problems: readonly (Problem | { message: string })[];
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  return (
    <dialog ref={dialog} className="name-dialog" aria-label="Not imported" onClose={props.onClose}>
      <h2>{props.fileName} was not imported</h2>
      <p>{props.message}</p>
      {props.problems.length > 0 && (
        <ul className="dialog-list">
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
