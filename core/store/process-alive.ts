import { uptime } from 'node:os';

/**
 * Leeway for times compared across a restart (the boot time is worked out
 * from the clock and the uptime, read at slightly different moments; a clock
 * may be set back by a second or so): a live process is never taken for gone.
 */
const CLOCK_LEEWAY_MS = 5_000;

/**
 * Whether a process with this id exists (run rows and run journals name the
 * process that wrote them). `seenAt`, when known, is a time that process was
 * running (a run's start): one seen before this machine last started, or
 * before this process did with this process's id, is gone, whatever process
 * has its id now (ids start again at each boot): else a run left by a restart
 * showed as running for as long as a new process held the id.
 */
export function isProcessAlive(pid: number, seenAt?: number): boolean {
  if (seenAt !== undefined) {
    // This process's id, seen before it started: a predecessor's (a container's pid 1, restarted).
    if (pid === process.pid) return seenAt >= performance.timeOrigin - CLOCK_LEEWAY_MS;
    if (seenAt < Date.now() - uptime() * 1000 - CLOCK_LEEWAY_MS) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
