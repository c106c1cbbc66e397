import type { PublishWarning } from '../../../core/model/publish-warnings';
import { useModalDialog } from '../use-modal-dialog';

/**
 * Lists what an MCP client would suffer from before the draft is published,
 * and asks. Publishing anyway is the person's call; Escape or Cancel keeps the draft.
 */
export function PublishDialog(props: {
  warnings: readonly PublishWarning[];
  onPublish: () => void;
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  return (
    <dialog ref={dialog} className="name-dialog" aria-label="Publish anyway?" onClose={props.onClose}>
      <h2>Publish anyway?</h2>
      <p>MCP clients would get this flow with:</p>
      <ul className="dialog-list">
        {props.warnings.map((w, i) => (
          <li key={i}>{w.message}</li>
        ))}
      </ul>
      <div className="dialog-actions">
        <button autoFocus onClick={() => dialog.current?.close()}>
          Cancel
        </button>
        <button
          className="primary"
          onClick={() => {
            props.onPublish();
            dialog.current?.close();
          }}
        >
          Publish anyway
        </button>
      </div>
    </dialog>
  );
}
