import { useState } from 'react';
import { cutText } from '../../../core/model/cut-text';

/**
 * Characters of a text shown before "Show all". A step's output can be
 * megabytes (an HTTP response, a code node's list), and laying out all of it
 * held the editor for seconds each time the step or its run was shown.
 * Copy buttons still take the whole text.
 */
export const SHOWN_CHARS = 20_000;

/**
 * `text` in a `<pre>` (or, `as="span"`, a JSON leaf's value), its first
 * SHOWN_CHARS characters until the person asks for all of it.
 */
export function ClippedText({
  text,
  className,
  label,
  as: Element = 'pre',
}: {
  text: string;
  className?: string;
  /** The element's accessible name. */
  label?: string;
  as?: 'pre' | 'span';
}) {
  const [isWhole, setWhole] = useState(false);
  const isClipped = !isWhole && text.length > SHOWN_CHARS;
  return (
    <>
      <Element className={className} aria-label={label}>
        {isClipped ? `${cutText(text, SHOWN_CHARS)}…` : text}
      </Element>
      {isClipped && <ShowMore onClick={() => setWhole(true)}>Show all {count(text.length)} characters</ShowMore>}
    </>
  );
}

export const count = (n: number) => n.toLocaleString('en');

/** The button that shows more of something clipped. */
export function ShowMore({ onClick, children }: { onClick: () => void; children: React.ReactNode }) {
  return (
    <button className="small show-more" onClick={onClick}>
      {children}
    </button>
  );
}
