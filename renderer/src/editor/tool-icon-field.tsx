import { useState } from 'react';
import { useAppStore } from '../store/app-store';

const ICON_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'];
const MAX_ICON_BYTES = 100 * 1024;

/** The tool's icon, shown by MCP clients beside the tool: a small image, kept in the flow. */
export function ToolIconField({ icon }: { icon: string | undefined }) {
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const set = (value: string) => useAppStore.getState().updateFlowFields({ tool: { icon: value } });
  const choose = (file: File | undefined) => {
    setProblem(undefined);
    if (!file) return;
    if (!ICON_TYPES.includes(file.type)) return setProblem(`${file.name} is not a PNG, JPEG, WebP or SVG image`);
    if (file.size > MAX_ICON_BYTES)
      return setProblem(`${file.name} is ${Math.ceil(file.size / 1024)} KB; an icon is at most 100 KB`);
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && set(reader.result);
    reader.onerror = () => setProblem(`${file.name} could not be read`);
    reader.readAsDataURL(file);
  };
  return (
    <div className="field tool-icon-field">
      <span className="field-label">Icon (shown by clients beside the tool)</span>
      <div className="tool-icon-row">
        {/* An inline image is shown; a web one is named, not fetched (the page loads nothing from the web). */}
        {icon?.startsWith('data:') ? (
          <img src={icon} alt="Tool icon" className="tool-icon" />
        ) : icon ? (
          <code className="tool-icon-url">{icon}</code>
        ) : (
          <span className="muted">none</span>
        )}
        <label className="button-like">
          {icon ? 'Replace…' : 'Choose an image…'}
          <input
            type="file"
            accept={ICON_TYPES.join(',')}
            aria-label="Tool icon file"
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = '';
            }}
            hidden
          />
        </label>
        {icon && (
          <button type="button" onClick={() => set('')}>
            Remove
          </button>
        )}
      </div>
      {problem && (
        <small className="error" role="alert">
          {problem}
        </small>
      )}
    </div>
  );
}
