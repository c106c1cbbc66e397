import { performance } from 'node:perf_hooks';

/** How long the oldest batch may wait for the run writer while this thread keeps the core busy. */
export const MAX_BACKLOG_MS = 1_000;
/** Busier than this, this thread is what keeps the writer from running. */
const SATURATED = 0.9;
/** How often this thread's event-loop utilization is read. */
const SAMPLE_MS = 500;

/**
 * Says when answers should wait for commits because the run writer falls
 * behind for want of CPU. The writer's thread yields to the answering one
 * (nice 10, see run-writer.worker.ts): on a core that answers without pause,
 * a flood of calls, it hardly runs, and batches would pile up in memory for
 * as long as the flood lasts (63,000 calls left 0.65 s of commits behind
 * them). Waiting for another process's write lock is no reason: answers go
 * on then, as the README promises. So: the oldest batch waiting has waited
 * past MAX_BACKLOG_MS, and this thread's event loop was busy more than 90 %
 * of the last half second or so.
 */
export class BacklogGuard {
  private mark = performance.eventLoopUtilization();
  private sampledAt = performance.now();
  private saturated = false;

  constructor(private readonly maxBacklogMs = MAX_BACKLOG_MS) {}

  /** Reads the loop's utilization when the last reading is old; call it often (each batch handed over). */
  sample(now: number): void {
    if (now - this.sampledAt < SAMPLE_MS) return;
    const current = performance.eventLoopUtilization();
    this.saturated = performance.eventLoopUtilization(current, this.mark).utilization > SATURATED;
    this.mark = current;
    this.sampledAt = now;
  }

  /** True when answers should wait for commits, given when the oldest batch waiting was handed over. */
  behind(oldestAt: number | undefined): boolean {
    if (oldestAt === undefined) return false;
    const now = performance.now();
    if (now - oldestAt < this.maxBacklogMs) return false;
    this.sample(now);
    return this.saturated;
  }
}
