import { benchAgent } from './agent.bench';
import { benchCold } from './cold.bench';
import { benchEngine } from './engine.bench';
import { benchMcp } from './mcp.bench';
import { benchRevisions } from './mcp-revisions.bench';
import { benchRunView } from './run-view.bench';
import { benchStartup } from './startup.bench';
import { benchStore } from './store.bench';
import { benchUi } from './ui.bench';
import { isFresh } from '../bin/built-fresh.mjs';
import { PLACEMENT, pinClients } from './pin';
import { printRows, type BenchRow } from './stats';

/**
 * `npm run bench [-- suite…]`: runs the benchmark suites in one process and
 * prints every figure with its goal. Not a test: nothing here fails CI.
 */
const SUITES: Record<string, () => Promise<BenchRow[]>> = {
  store: benchStore,
  engine: benchEngine,
  mcp: benchMcp,
  revisions: benchRevisions,
  ui: benchUi,
  runview: benchRunView,
  agent: benchAgent,
  cold: benchCold,
  startup: benchStartup,
};

/** Suites that time calls from this process to servers it starts: run with the processes pinned (see pin.ts). */
const PINNED = new Set(['mcp', 'revisions', 'agent']);

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? wanted : Object.keys(SUITES);
const rows: BenchRow[] = [];
for (const name of names) {
  const suite = SUITES[name];
  if (!suite) {
    console.error(`unknown suite "${name}"; suites: ${Object.keys(SUITES).join(', ')}`);
    process.exit(2);
  }
  console.error(`running ${name}…`);
  const unpin = PINNED.has(name) ? pinClients() : () => undefined;
  try {
    const suiteRows = await suite();
    // A source edited while the bench runs sends bin/flowbench to tsx: the processes a suite starts
    // then pay its compiling (`--help` measured 794 ms instead of 220), and their figures say nothing.
    if (!isFresh() && !rows.some((row) => row.suite === 'stale')) {
      rows.push({
        suite: 'stale',
        metric: `the ${name} suite, and those after it, may have run the CLI from its TypeScript sources (tsx)`,
        value: 'a core/ source changed after the build: these figures do not count; run the bench again',
      });
    }
    rows.push(...suiteRows);
  } finally {
    unpin();
  }
}
if (names.some((name) => PINNED.has(name))) {
  rows.push({ suite: 'machine', metric: `placement in the ${[...PINNED].join(', ')} suites`, value: PLACEMENT });
}
printRows(rows);
