/**
 * How long a wait node waits: in the node's config and where other tools'
 * waits are imported (n8n's Wait), which must keep within the same limit.
 */

export const WAIT_UNITS = ['seconds', 'minutes', 'hours'] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number];

export const WAIT_UNIT_MS: Readonly<Record<WaitUnit, number>> = { seconds: 1000, minutes: 60_000, hours: 3_600_000 };

/**
 * The longest wait. A run waits in the process that runs it: Flowbench keeps
 * no paused run on disk (n8n does, past 65 s), so a wait of days would be a
 * wait for the app or `serve` to stay up that long.
 */
export const MAX_WAIT_MS = 24 * WAIT_UNIT_MS.hours;

/** A wait in milliseconds. */
export const waitMs = (config: { amount: number; unit: WaitUnit }): number => config.amount * WAIT_UNIT_MS[config.unit];

/** "5 seconds", "1 minute", "1.5 hours". */
export function waitLength(amount: number, unit: WaitUnit): string {
  return `${amount} ${amount === 1 ? unit.slice(0, -1) : unit}`;
}
