import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * CPU pinning for the suites that time one process's calls to another (MCP
 * round trips, tool calls). On two cores the scheduler sometimes runs a
 * server on the core of the client that woke it (a round trip of 35–40 µs)
 * and sometimes on the other core (70–100 µs), and switches between the two
 * every few seconds, differently for each server process: side by side, one
 * server was measured at 40 µs while the other was at 100, and the ratio of
 * the same code swung from 0.4× to 2.4× between runs. Pinned, the bench
 * process (the clients) on the first core and every server it started on
 * the second, both sides get the cross-core wake-up a desktop client and
 * its MCP server get on a machine with more cores, and the same ratio
 * repeats within a few percent. Our server's run-writer thread shares the
 * servers' core with its main thread there, which costs us, not the baseline.
 *
 * Linux only (taskset, pgrep); elsewhere, with one core, or with
 * FLOWBENCH_BENCH_PIN=0, nothing is pinned and the bench says so.
 */

const CLIENT_CPU = '0';
const SERVER_CPU = '1';

function tool(name: string): boolean {
  try {
    execFileSync(name, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function whyNotPinned(): string | undefined {
  if (process.env.FLOWBENCH_BENCH_PIN === '0') return 'FLOWBENCH_BENCH_PIN=0';
  if (process.platform !== 'linux') return `pinning needs Linux (this is ${process.platform})`;
  if (availableParallelism() < 2) return 'one CPU';
  if (!tool('taskset') || !tool('pgrep')) return 'taskset or pgrep is missing';
  return undefined;
}

const notPinned = whyNotPinned();
/** Every CPU, read before anything is pinned (a pinned process sees only its own). */
const ALL_CPUS = `0-${availableParallelism() - 1}`;

/** How the timed processes were placed, for the bench's output. */
export const PLACEMENT = notPinned
  ? `not pinned (${notPinned}): round trips swing with where the scheduler puts each server`
  : `clients (the bench) on CPU ${CLIENT_CPU}, every server under test on CPU ${SERVER_CPU} (taskset)`;

/**
 * Sets the CPUs of every thread of a process, one thread at a time: taskset's
 * --all-tasks fails when a thread ends while it works (a run writer closing).
 * The main thread goes first, so threads it starts meanwhile inherit the setting.
 */
function setAffinity(cpus: string, pid: number): void {
  const threads = readdirSync(`/proc/${pid}/task`).map(Number);
  for (const thread of [pid, ...threads.filter((t) => t !== pid)]) {
    try {
      execFileSync('taskset', ['--pid', '--cpu-list', cpus, String(thread)], { stdio: 'ignore' });
    } catch {
      // The thread ended meanwhile.
    }
  }
}

/** tsx's esbuild service: it compiles the bench's own modules and is not under test. */
const isBuildTool = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'esbuild';
  } catch {
    return false;
  }
};

function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/**
 * Pins the bench process to the clients' core until the returned function is
 * called (which gives it every core back). Servers started before or after
 * are pinned by `pinServers`.
 */
export function pinClients(): () => void {
  if (notPinned) return () => undefined;
  setAffinity(CLIENT_CPU, process.pid);
  return () => setAffinity(ALL_CPUS, process.pid);
}

/** Pins every process the bench started (and theirs), with all their threads, to the servers' core. */
export function pinServers(): void {
  if (notPinned) return;
  for (const pid of descendants(process.pid).filter((child) => !isBuildTool(child))) {
    try {
      setAffinity(SERVER_CPU, pid);
    } catch {
      // A process that ended meanwhile.
    }
  }
}
