import { useAppStore } from '../store/app-store';
import { SHORTCUTS } from './shortcuts';

/** The keyboard shortcuts, listed when the user presses ? or the toolbar's ? button. */
export function ShortcutsDialog() {
  const isOpen = useAppStore((s) => s.isShortcutsOpen);
  const setOpen = useAppStore((s) => s.setShortcutsOpen);
  if (!isOpen) return null;
  return (
    <div className="dialog-backdrop" onClick={() => setOpen(false)}>
      <div className="dialog" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys}>
                <td>
                  <kbd>{s.keys}</kbd>
                </td>
                <td>{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button onClick={() => setOpen(false)}>Close</button>
      </div>
    </div>
  );
}
