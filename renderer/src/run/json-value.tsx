import { useState } from 'react';
import { dataUrlBytes, dataUrlPieces, dataUrlType } from '../../../core/model/data-urls';
import { ClippedText, count, ShowMore } from './clipped-text';
import { formatBytes } from './format-bytes';

/**
 * Entries of a list or object shown at first, and added by each "Show more".
 * A code node's list of 100,000 items drew every one of them (a million
 * elements, folded or not): the editor froze for longer than a browser
 * waits, at the click that showed the step.
 */
const ENTRIES_SHOWN = 100;

/** A `data:` URL of bytes (an HTTP request node's image or PDF): its type and size, and the image itself. */
function DataUrlValue({ url, type, label }: { url: string; type: string; label: React.ReactNode }) {
  return (
    <div className="json-leaf data-url">
      {label}
      <span className="muted">
        {type}, {formatBytes(dataUrlBytes(url))} (a data: URL; Copy takes all of it)
      </span>
      {type.startsWith('image/') && <img src={url} alt={`the ${type} the step gave`} />}
    </div>
  );
}

/** Text as text; objects and arrays as a tree whose branches fold. */
export function JsonValue({ value, name }: { value: unknown; name?: string }) {
  const label = name !== undefined ? <span className="json-key">{name}: </span> : null;
  const dataType = typeof value === 'string' ? dataUrlType(value) : undefined;
  if (dataType) return <DataUrlValue url={value as string} type={dataType} label={label} />;
  if (typeof value === 'string' && value.includes(';base64,')) {
    const parts = dataUrlPieces(value);
    if (parts.some((part) => part.type !== undefined)) {
      return (
        <div className="json-leaf">
          {label}
          {parts.map((part, i) =>
            part.type === undefined ? (
              <ClippedText key={i} text={part.text} />
            ) : (
              <DataUrlValue key={i} url={part.text} type={part.type} label={null} />
            ),
          )}
        </div>
      );
    }
  }
  if (value === null || typeof value !== 'object') {
    const text = typeof value === 'string' && name === undefined ? value : JSON.stringify(value);
    return name === undefined ? <ClippedText text={text} /> : <JsonLeaf label={label} value={value} text={text} />;
  }
  return <JsonTree value={value} name={name} label={label} />;
}

/** A named value that is no list or object: clipped as a text is. */
function JsonLeaf({ label, value, text }: { label: React.ReactNode; value: unknown; text: string }) {
  return (
    <div className="json-leaf">
      {label}
      <ClippedText as="span" className={`json-${value === null ? 'null' : typeof value}`} text={text} />
    </div>
  );
}

/**
 * A list or object as a branch that folds. Its entries are drawn once it is
 * open, ENTRIES_SHOWN at a time: a folded branch costs nothing however big.
 */
function JsonTree({ value, name, label }: { value: object; name?: string; label: React.ReactNode }) {
  const isList = Array.isArray(value);
  const keys = isList ? undefined : Object.keys(value);
  const size = isList ? (value as unknown[]).length : (keys as string[]).length;
  const [isOpen, setOpen] = useState(name === undefined || size <= 8);
  const [shown, setShown] = useState(ENTRIES_SHOWN);
  const entry = (i: number): [string, unknown] =>
    isList
      ? [String(i), (value as unknown[])[i]]
      : [keys?.[i] as string, (value as Record<string, unknown>)[keys?.[i] as string]];
  const drawn = isOpen ? Math.min(shown, size) : 0;
  return (
    <details className="json-tree" open={isOpen} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        {label}
        <span className="muted">{isList ? `[${size}]` : `{${size}}`}</span>
      </summary>
      {Array.from({ length: drawn }, (_, i) => {
        const [key, item] = entry(i);
        return <JsonValue key={key} name={key} value={item} />;
      })}
      {isOpen && size > drawn && (
        <ShowMore onClick={() => setShown(shown * 10)}>
          Show {count(Math.min(shown * 10, size) - drawn)} more of {count(size)}
        </ShowMore>
      )}
    </details>
  );
}
