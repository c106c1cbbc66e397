import { pinServers } from './pin';
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
 * Untimed calls first, so that both servers are measured in their steady state.
 * V8 optimizes a function that runs once per call only after about 2,000
 * calls (its interrupt budget), and both servers keep getting faster until
 * then: measured on this machine, our stdio p50 falls from 0.54 to 0.23 ms
 * over the first 2,000 calls and the bare server's from 0.20 to 0.05–0.10 ms
 * (with --no-opt neither improves). 300 calls, the old figure, measured both
 * halfway through that.
 */
export const WARMUP_CALLS = 2500;

/** Alternates blocks of sequential calls between the two targets so both see the same machine. */
export async function roundTrips(a: Target, b: Target, total: number): Promise<[number[], number[]]> {
  const samples: [number[], number[]] = [[], []];
  // Both servers are running by now: onto the servers' core (see pin.ts).
  pinServers();
  for (let i = 0; i < WARMUP_CALLS; i++) await Promise.all([a.call(i), b.call(i)]);
  for (let block = 0; block < 10; block++) {
    for (const [index, target] of [a, b].entries()) {
      for (let i = 0; i < total / 10; i++) {
        const started = performance.now();
        await target.call(i);
        samples[index]?.push(performance.now() - started);
      }
    }
  }
  return samples;
}

/** Calls per second with `callers` concurrent sequential callers. */
export async function throughput(target: Target, callers: number, perCaller: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      for (let i = 0; i < perCaller; i++) await target.call(c * perCaller + i);
    }),
  );
  return (callers * perCaller) / ((performance.now() - started) / 1000);
}
