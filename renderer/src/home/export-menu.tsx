import { useEffect, useRef, useState } from 'react';
import type { ExportFormat } from '../../../core/formats/export-formats';

/** Each format as a person knows it; the native one first, the only one that keeps everything. */
const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'native', label: 'Flowbench JSON (keeps everything)' },
  { format: 'flow-definition-json', label: 'Multi-agent flow definition, JSON' },
  { format: 'flow-definition-yaml', label: 'Multi-agent flow definition, YAML' },
  { format: 'flowyprompt', label: 'FlowyPrompt JSON' },
  { format: 'workflow', label: 'Workflow JSON' },
];

/**
 * Export, in any format Flowbench writes (as `flowbench export --format`
 * does): a file is downloaded; what a format has no place for is said after.
 */
export function ExportMenu({ name, onExport }: { name: string; onExport: (format: ExportFormat) => void }) {
  const [isOpen, setOpen] = useState(false);
  const list = useRef<HTMLUListElement>(null);
  // A menu is walked with the arrow keys, starting on its first item.
  useEffect(() => {
    if (isOpen) list.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, [isOpen]);
  return (
    <span
      className="menu-anchor"
      onBlur={(e) => {
        // Closed when the focus leaves the button and its list (a click elsewhere, Tab away).
        if (!e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
      onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
    >
      <button aria-haspopup="menu" aria-expanded={isOpen} onClick={() => setOpen(!isOpen)}>
        Export ▾
      </button>
      {isOpen && (
        <ul
          className="menu"
          role="menu"
          aria-label={`Export “${name}” as`}
          ref={list}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
            e.preventDefault();
            const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role=menuitem]')];
            const at = items.indexOf(document.activeElement as HTMLElement);
            const next = (at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
            items[next]?.focus();
          }}
        >
          {FORMATS.map(({ format, label }) => (
            <li key={format} role="none">
              <button
                role="menuitem"
                onClick={() => {
                  setOpen(false);
                  onExport(format);
                }}
              >
                {label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
