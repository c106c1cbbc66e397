import { useEffect, useState } from 'react';

// English, as the rest of the interface is; the date and the exact time follow the person's locale.
const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
/** Each unit, and how many of it make the next one. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/** How long ago `at` was in words ("now", "3 minutes ago", "yesterday") within a week; before that, its date. */
export function relativeTime(at: Date, now: Date): string {
  // A moment after `now` (changed since the list's clock last ticked, or another machine's clock) is now.
  let amount = Math.min(0, at.getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    const rounded = Math.round(amount);
    if (Math.abs(rounded) < size) return RELATIVE.format(rounded, unit);
    amount /= size;
  }
  return at.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** The time now, renewed every `everyMs`: a list that stays open keeps saying how long ago, not what it was. */
export function useNow(everyMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A moment as a list shows it, as n8n's and Langflow's do: how long ago (see useNow), the exact time on hover. */
export function When({ at, now }: { at: string; now: Date }) {
  const date = new Date(at);
  return (
    <time className="when" dateTime={at} title={date.toLocaleString()}>
      {relativeTime(date, now)}
    </time>
  );
}
