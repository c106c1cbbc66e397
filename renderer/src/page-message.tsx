import { useEffect, useRef } from 'react';

/**
 * A refusal said at the top of a page (providers, servers, agents), brought
 * into view when it comes: the button pressed may be far below, in a row or
 * an editor further down, and a message out of view looks like nothing happened.
 */
export function PageMessage({ message }: { message: string | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [message]);
  if (!message) return null;
  return (
    <p className="error" role="alert" ref={ref}>
      {message}
    </p>
  );
}
