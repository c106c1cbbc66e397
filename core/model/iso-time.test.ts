import { expect, it } from 'vitest';
import { isoTime } from './iso-time';

const LAST_MS = Date.UTC(10000, 0, 1);

it('writes every time as toISOString does: across minutes, forwards and back, and at the edges of its fast path', () => {
  const times: number[] = [0, 1, 59_999, 60_000, 60_001, Date.UTC(2026, 11, 7, 23, 59, 59, 999), LAST_MS - 1];
  // Random times, each followed by neighbours in its minute and across its ends, in both directions.
  let seed = 7;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  for (let i = 0; i < 2_000; i++) {
    const ms = Math.floor(random() * LAST_MS);
    const minute = ms - (ms % 60_000);
    times.push(ms, ms + 1, ms - 1, minute, minute - 1, minute + 59_999, minute + 60_000, ms + 999, ms - 61_000);
  }
  for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
});

it('leaves times its fast path does not cover to toISOString: before 1970, after 9999, fractions; NaN throws as it does', () => {
  for (const ms of [-1, -60_001, -62_198_755_200_000, LAST_MS, LAST_MS + 60_000, 1.5, 1_700_000_000_000.7]) {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  }
  expect(() => isoTime(Number.NaN)).toThrow(RangeError);
});
