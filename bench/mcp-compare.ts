import { pinServers } from './pin';
import { median, ms, percentile, type BenchRow } from './stats';

/** One MCP server under measurement: how to call its echo-like tool once, and how to let it go. */
export interface Target {
  label: string;
  call: (i: number) => Promise<unknown>;
  close: () => Promise<void> | void;
}

/** Any SDK client (v1 or v2) calling one tool with a `message` argument. */
export function echoTarget(
  label: string,
  client: { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown> },
  tool: string,
  close: () => Promise<void> | void,
): Target {
  return { label, call: (i) => client.callTool({ name: tool, arguments: { message: `m${i}` } }), close };
}

/**
 * Calls before the timed ones, so that both servers are measured in their
 * steady state. V8 optimizes a function that runs once per call only after
 * thousands of calls (its interrupt budget), and on a pinned core each
 * optimization (TurboFan, on V8's helper threads) holds up the call it
 * overlaps by up to a few ms. Sequential stdio calls to one fresh server, by
 * blocks of 2,000 (v1 client, pinned as in the bench): our p99 went 5.2,
 * 2.5, 1.4 ms, then 0.35–0.52 from 6,000 calls on; the bare server's 3.8,
 * 1.4, then 0.16–0.31 from 4,000 on; TurboFan compiled 162 and 119 functions
 * in all; the v2 client's rows settle from 6,000 calls on too. At 2,500 (the
 * old figure) the timed calls were ours' 2,500th to 7,500th, in the middle of
 * its warm-up: the same two servers, timed after 2,500 and after 8,000 calls
 * (two runs each), had 62–66 and 28–33 of ours' 5,000 timed calls over 1 ms,
 * and 36–39 of the bare server's either way. The warm-up's own figures are a
 * row of their own (warmupRow): a person's first calls are not hidden.
 */
export const WARMUP_CALLS = 8000;

/** The warm-up calls the warm-up row reports: each server's first ones in this comparison. */
const FIRST_CALLS = 2000;

/**
 * Timed calls of each target. The p99 of 1,000 calls (the old figure) is
 * their tenth slowest, and on this machine about 1 % of calls, in either
 * server, take 1–4 ms (a garbage collection, the host): whether the tenth
 * slowest landed among those decided the p99 ratio, which swung from 1.4× to
 * 2.3× between runs of the same code. 5,000 calls put 50 beyond the p99.
 */
export const TIMED_CALLS = 5000;

/** Each target's call times (ms), in the order of the targets. */
export interface RoundTrips {
  /** The first FIRST_CALLS calls of the warm-up. */
  first: number[][];
  /** The timed calls, in the steady state. */
  timed: number[][];
}

/**
 * Calls every target in turn, one call at a time (so all see the same
 * machine and none shares it with another's call): WARMUP_CALLS each, the
 * first of which are kept for the warm-up row, then blocks of timed calls.
 */
export async function roundTrips(targets: readonly Target[], total = TIMED_CALLS): Promise<RoundTrips> {
  const first = targets.map((): number[] => []);
  // The servers are running by now: onto the servers' core (see pin.ts).
  pinServers();
  for (let i = 0; i < WARMUP_CALLS; i++) {
    for (const [index, target] of targets.entries()) {
      const started = performance.now();
      await target.call(i);
      if (i < FIRST_CALLS) first[index]?.push(performance.now() - started);
    }
  }
  const timed = await alternateBlocks(
    targets.map((target) => target.call),
    total,
  );
  return { first, timed };
}

/**
 * Alternates blocks of sequential calls between the functions (each given
 * its call's index in the block) so all see the same machine; each one's
 * call times (ms).
 */
export async function alternateBlocks(
  calls: readonly ((i: number) => Promise<unknown>)[],
  total: number,
  blocks = 10,
): Promise<number[][]> {
  const samples = calls.map((): number[] => []);
  for (let block = 0; block < blocks; block++) {
    for (const [index, call] of calls.entries()) {
      for (let i = 0; i < total / blocks; i++) {
        const started = performance.now();
        await call(i);
        samples[index]?.push(performance.now() - started);
      }
    }
  }
  return samples;
}

/**
 * No goal: p50 and p99 of each server's first calls here (see WARMUP_CALLS),
 * while V8 still optimizes them. For a server started by this comparison,
 * what a client's first calls meet; a server shared with an earlier row
 * (`serve`, for HTTP) is past its warm-up.
 */
export function warmupRow(suite: string, label: string, mine: number[], base: number[]): BenchRow {
  const part = (samples: number[]) => `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 99))}`;
  const ratio = (p: number) => (percentile(mine, p) / percentile(base, p)).toFixed(2);
  return {
    suite,
    metric: `${label}: first ${FIRST_CALLS.toLocaleString('en')} calls, p50 / p99 (no goal)`,
    value: `ours ${part(mine)}, bare ${part(base)} (${ratio(50)}× / ${ratio(99)}×)`,
  };
}

/**
 * No goal: the bare server's p50 and p99 when it appends the journal line
 * Flowbench appends before each answer (journal-append.ts), over its own
 * without, both measured in the same blocks as the goal's row: the part of a
 * ratio to the bare server that any server keeping every answered call
 * durable pays on this machine.
 */
export function appendReferenceRow(suite: string, label: string, appending: number[], bare: number[]): BenchRow {
  const part = (p: number) => {
    const value = percentile(appending, p);
    const base = percentile(bare, p);
    return `${(value * 1000).toFixed(0)} µs against ${(base * 1000).toFixed(0)} (${(value / base).toFixed(2)}×)`;
  };
  return {
    suite,
    metric: `${label}: bare echo that appends a journal line per call (no goal)`,
    value: `p50 ${part(50)}; p99 ${part(99)}`,
  };
}

/**
 * No goal: how many calls of each took over five times the bare server's
 * p50. The p99 ratio depends on whether that share is over or under 1 %,
 * so the row says what it is.
 */
export function slowCallsRow(suite: string, label: string, mine: number[], base: number[]): BenchRow {
  const limit = 5 * percentile(base, 50);
  const share = (samples: number[]) =>
    `${((100 * samples.filter((s) => s > limit).length) / samples.length).toFixed(2)} %`;
  return {
    suite,
    metric: `${label}: calls over 5× the bare p50 (${(limit * 1000).toFixed(0)} µs), ours / bare (no goal)`,
    value: `${share(mine)} / ${share(base)}`,
  };
}

/** Calls per second with `callers` concurrent sequential callers. */
async function throughput(target: Target, callers: number, perCaller: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      for (let i = 0; i < perCaller; i++) await target.call(c * perCaller + i);
    }),
  );
  return (callers * perCaller) / ((performance.now() - started) / 1000);
}

/** Rounds of each throughput comparison, ours and the bare server alternating. */
const THROUGHPUT_ROUNDS = 3;

export interface ThroughputComparison {
  /** Median calls per second of each. */
  ours: number;
  bare: number;
  /** Ours over bare in each round, and their median: the figure the goal is checked against. */
  ratios: number[];
  ratio: number;
}

/**
 * Calls per second of ours and of the bare server with `callers` concurrent
 * callers, in alternating rounds. One round each, ours first, swung from
 * 0.66× to 0.87× over six full runs on this machine: a slow second on either
 * side decided the figure. Each round pairs two measurements taken moments
 * apart, and the median round leaves such a second out whichever side it fell on.
 */
export async function compareThroughput(
  ours: Target,
  bare: Target,
  callers: number,
  perCaller: number,
): Promise<ThroughputComparison> {
  const oursRates: number[] = [];
  const bareRates: number[] = [];
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    oursRates.push(await throughput(ours, callers, perCaller));
    bareRates.push(await throughput(bare, callers, perCaller));
  }
  const ratios = oursRates.map((rate, round) => rate / (bareRates[round] as number));
  return {
    ours: median(oursRates),
    bare: median(bareRates),
    ratios,
    ratio: median(ratios),
  };
}

/** A comparison's figures for a row: the medians, and the ratio of each round. */
export function throughputValue(compared: ThroughputComparison): string {
  const rounds = compared.ratios.map((ratio) => ratio.toFixed(2)).join(' / ');
  return `${compared.ours.toFixed(0)} / ${compared.bare.toFixed(0)} (median round ${compared.ratio.toFixed(2)}×; rounds ${rounds})`;
}
