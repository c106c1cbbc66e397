import { useState } from 'react';
import type { Flow } from '../../../core/model/flow';
import type { PublishWarning } from '../../../core/model/publish-warnings';
import { useModalDialog } from '../use-modal-dialog';
import { DraftChanges } from './versions-section';

/**
 * Before the draft becomes the version MCP clients call: what changes for
 * them since the latest version, what they would suffer from (warnings), and
 * a note kept with the version (the versions list shows it), as n8n's and
 * Dify's publish dialogs ask. Enter publishes; Escape or Cancel keeps the draft.
 */
export function PublishDialog(props: {
  flow: Flow;
  /** The version the draft would become. */
  next: number;
  warnings: readonly PublishWarning[];
  onPublish: (note: string) => void;
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  const [note, setNote] = useState('');
  const publish = () => {
    props.onPublish(note.trim());
    dialog.current?.close();
  };
  const hasWarnings = props.warnings.length > 0;
  return (
    <dialog
      ref={dialog}
      className="name-dialog publish-dialog"
      aria-label={`Publish version ${props.next}`}
      onClose={props.onClose}
    >
      <h2>Publish version {props.next}</h2>
      {props.next === 1 ? (
        <p>MCP clients get this flow as the tool {props.flow.tool.name} once it is published.</p>
      ) : (
        <DraftChanges flow={props.flow} version={props.next - 1} />
      )}
      {hasWarnings && (
        <>
          <p>MCP clients would get it with:</p>
          <ul className="dialog-list" aria-label="Warnings">
            {props.warnings.map((w, i) => (
              <li key={i}>{w.message}</li>
            ))}
          </ul>
        </>
      )}
      <label className="field" htmlFor="publish-note">
        <span className="field-label">Note (optional): what this version changes</span>
        <input
          id="publish-note"
          autoFocus
          value={note}
          maxLength={2000}
          onChange={(e) => setNote(e.target.value)}
          onKeyDown={(e) => {
            // Ctrl+Enter too: the editor's Ctrl+Enter (run the flow) must not reach it from here.
            if (e.key !== 'Enter') return;
            e.preventDefault();
            publish();
          }}
        />
      </label>
      <div className="dialog-actions">
        <button onClick={() => dialog.current?.close()}>Cancel</button>
        <button className="primary" onClick={publish}>
          {hasWarnings ? 'Publish anyway' : 'Publish'}
        </button>
      </div>
    </dialog>
  );
}
