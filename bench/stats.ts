/** Small statistics and printing helpers shared by the benchmark suites. */

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

/** Times `fn` `runs` times (after `warmup` untimed runs) and returns milliseconds per run. */
export async function timeRuns(runs: number, fn: (i: number) => unknown, warmup = 2): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

export interface BenchRow {
  suite: string;
  metric: string;
  value: string;
  goal?: string;
  /** Measured over goal (or over the baseline measured in the same run); under 1 meets it. */
  ratio?: number;
}

export const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;

export function printRows(rows: readonly BenchRow[]): void {
  const widths = [10, 52, 30, 18];
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join(' ')
      .trimEnd();
  console.log(line(['suite', 'metric', 'measured', 'goal', 'ratio']));
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×${row.ratio <= 1 ? ' ok' : ' OVER'}`;
    console.log(line([row.suite, row.metric, row.value, row.goal ?? '', ratio]));
  }
}
