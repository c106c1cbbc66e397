import { useCallback, useEffect, useRef, useState } from 'react';
import { toFlowbenchError } from '../../../core/model/errors';

/** A pause in typing this long saves what was typed. */
export const SAVE_AFTER_MS = 600;

export type AutoSaveState = { kind: 'saved' } | { kind: 'saving' } | { kind: 'refused'; message: string };

/**
 * Saves `value` (compared as JSON) once typing pauses, as the flow editor
 * saves a flow: also at once when the editor goes (another agent chosen,
 * another page, the window closing), so that nothing typed is left behind
 * for want of a click. A refused value stays on screen with the host's
 * reason, and is tried again at the next change. `flush` saves what is
 * pending now and rejects when it is refused (Publish goes on only from a
 * saved draft).
 */
export function useAutoSave<T>(value: T, save: (value: T) => Promise<void>) {
  const [state, setState] = useState<AutoSaveState>({ kind: 'saved' });
  const saved = useRef(JSON.stringify(value));
  const latest = useRef(value);
  const saveRef = useRef(save);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // One save at a time, in the order typed: a later one starts when the one before it has ended.
  const chain = useRef<Promise<void>>(Promise.resolve());
  latest.current = value;
  saveRef.current = save;

  const flush = useCallback((): Promise<void> => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const run = chain.current.then(async () => {
      const text = JSON.stringify(latest.current);
      if (text === saved.current) return;
      setState({ kind: 'saving' });
      try {
        await saveRef.current(JSON.parse(text) as T);
      } catch (error) {
        setState({ kind: 'refused', message: toFlowbenchError(error).message });
        throw error;
      }
      saved.current = text;
      // Typed on meanwhile: shown as saving until that is saved too (see `pending` below).
      setState({ kind: 'saved' });
    });
    // A refusal is said in `state`; the next save tries again.
    chain.current = run.catch(() => undefined);
    return run;
  }, []);

  const text = JSON.stringify(value);
  useEffect(() => {
    if (text === saved.current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush().catch(() => undefined), SAVE_AFTER_MS);
  }, [text, flush]);

  useEffect(() => {
    const now = () => void flush().catch(() => undefined);
    window.addEventListener('beforeunload', now);
    return () => {
      window.removeEventListener('beforeunload', now);
      // Going away (another agent, another page): what is pending is saved now.
      now();
    };
  }, [flush]);

  const pending = text !== saved.current;
  return { state: pending && state.kind === 'saved' ? ({ kind: 'saving' } as const) : state, flush };
}
