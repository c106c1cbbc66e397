import { useEffect, useRef, useState } from 'react';
import { TEXT_LIMITS } from '../../../core/model/flow';
import { useModalDialog } from '../use-modal-dialog';

/**
 * Asks for a name in the app's own modal dialog (Electron has no
 * `window.prompt`). Enter confirms, Escape or Cancel closes; the field has
 * the focus and its text selected, so typing replaces it.
 */
export function NameDialog(props: {
  title: string;
  initial: string;
  confirmLabel: string;
  onConfirm: (name: string) => void;
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(props.initial);
  useEffect(() => input.current?.select(), []);
  const trimmed = name.trim();
  return (
    <dialog ref={dialog} className="name-dialog" aria-label={props.title} onClose={props.onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!trimmed) return;
          props.onConfirm(trimmed);
          dialog.current?.close();
        }}
      >
        <h2>{props.title}</h2>
        <label className="field" htmlFor="name-dialog-input">
          <span className="field-label">Name</span>
          <input
            id="name-dialog-input"
            ref={input}
            value={name}
            maxLength={TEXT_LIMITS.flowName}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        {!trimmed && <p className="muted">A flow needs a name.</p>}
        <div className="dialog-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!trimmed}>
            {props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
