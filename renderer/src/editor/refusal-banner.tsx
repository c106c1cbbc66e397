import { useAppStore } from '../store/app-store';
import { ProblemList } from './problems-panel';

/**
 * What the host refused and why (a run that cannot start, an edit that was
 * not saved), above the canvas until it is closed: a toast would vanish with
 * the reasons.
 */
export function RefusalBanner() {
  const refusal = useAppStore((s) => s.refusal);
  if (!refusal) return null;
  return (
    <section className="refusal" role="alert" aria-label="Refused">
      <header>
        <strong>{refusal.title}</strong>
        <button className="small" onClick={() => useAppStore.getState().showRefusal(undefined)}>
          Close
        </button>
      </header>
      {refusal.problems.length > 0 && <ProblemList problems={refusal.problems} label="Why" />}
    </section>
  );
}
