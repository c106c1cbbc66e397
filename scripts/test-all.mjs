// `npm test`: every test suite (unit + integration with vitest, browser with
// Playwright when present), with the type-check and lint beside them. Prints one closing line
// `N passed, N failed[, N skipped]` computed from the runners' JSON reports.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = join(import.meta.dirname, '..');
const reports = join(root, 'test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);

const testStarted = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

/**
 * Runs a step; resolves with its exit status. Steps started before it go on meanwhile.
 * `live`: its output is printed as it goes (one such step at a time); otherwise it is kept and
 * printed when the step ends, so that steps running side by side print one after another.
 * `background` lowers its priority, so that tests running beside it get the CPU they ask for.
 */
function step(label, command, args, { env = {}, live = false, background = false } = {}) {
  if (live) console.log(`\n=== ${label} ===`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: live ? 'inherit' : 'pipe',
      env: { ...process.env, ...env },
    });
    try {
      if (background && child.pid) setPriority(child.pid, 19);
    } catch {
      // Gone already, or not allowed here: it runs at the usual priority.
    }
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    // A child that cannot start may report both 'error' and 'close': the first one counts.
    let finished = false;
    const done = (status, error) => {
      if (finished) return;
      finished = true;
      console.log(`${live ? '' : '\n'}=== ${label}: ${seconds(started)} ===`);
      if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      if (error) console.log(error.message);
      resolve(status);
    };
    child.on('error', (error) => done(1, error));
    child.on('close', (status) => done(status ?? 1));
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
/** Adds a vitest JSON report to the totals; a run that left none counts as one failure. */
function countVitest(report, code) {
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + json.numTodoTests;
  } else if (code !== 0) {
    totals.failed += 1;
  }
}
const vitestArgs = (report) => ['run', '--reporter=default', '--reporter=json', `--outputFile=${report}`];

// An install made without the packages' install scripts (`npm ci --ignore-scripts`, as .ci/run does)
// runs them here, beside the checks, which need none of them: better-sqlite3's compile from source
// takes over a minute on one core, while the other core would idle through an `npm ci`. The tests
// wait for them. An install that ran its scripts has the SQLite addon, and nothing runs again.
const sqliteAddon = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const npm = process.env.npm_execpath
  ? [process.execPath, [process.env.npm_execpath]]
  : [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
const installScripts = existsSync(sqliteAddon)
  ? Promise.resolve(0)
  : step('install scripts (npm rebuild)', npm[0], [...npm[1], 'rebuild']);

// The checks read the sources and write nothing the others read. They run beside everything
// else at the lowest priority, on the CPU the tests leave while they wait on processes, servers
// and timers (the main vitest run kept two cores about two-thirds busy): the checks alone took
// 109 s before the tests started. At an equal priority, four checks on two cores slowed a call
// these tests time to 8 s.
const checks = [
  ['typecheck', bin('tsc'), ['-b']],
  ['eslint', bin('eslint'), ['.']],
  ['prettier', bin('prettier'), ['--check', '.']],
];
const checkRuns = checks.map(([label, command, args]) => step(label, command, args, { background: true }));

// The CLI and the run writer the tests spawn, built once from the sources under test; the
// vitest runs below are told so and do not build them again (tests/setup/build-node.ts).
const checksFailed = [];
if ((await step('node build', process.execPath, [join(root, 'scripts', 'build-node.mjs')], { live: true })) !== 0)
  checksFailed.push('node build');
const built = { FLOWBENCH_NODE_BUILT: '1' };

// Test files that spend their time waiting on a slow model (a 90-second call): a run of their
// own beside the main one, instead of holding one of its two workers idle for a minute and a half.
const WAITING_TESTS = ['tests/mcp/long-runs.test.ts'];
const waitingReport = join(reports, 'vitest-waiting.json');

// The desktop app's bundles (main, preload, renderer): built on every run, so a break in them
// fails CI although Electron itself cannot start here. Before the vitest runs, as its renderer
// build empties out/renderer/, which tests there read (the editor's page that `serve` serves).
if ((await step('app build', bin('electron-vite'), ['build'])) !== 0) checksFailed.push('app build');
if ((await installScripts) !== 0) checksFailed.push('install scripts');

const vitestStarted = performance.now();
const waiting = step('waiting tests (vitest)', bin('vitest'), [...vitestArgs(waitingReport), ...WAITING_TESTS], {
  env: built,
});
const vitestReport = join(reports, 'vitest.json');
const excluded = WAITING_TESTS.flatMap((file) => ['--exclude', file]);
const vitestCode = await step(
  'unit and integration tests (vitest)',
  bin('vitest'),
  [...vitestArgs(vitestReport), ...excluded],
  {
    env: built,
    live: true,
  },
);
countVitest(vitestReport, vitestCode);
countVitest(waitingReport, await waiting);
console.log(`\n=== vitest: ${seconds(vitestStarted)} ===`);

const browserDir = join(root, 'tests', 'browser');
if (existsSync(browserDir) && readdirSync(browserDir).some((f) => f.endsWith('.spec.ts'))) {
  // The browser tests drive the built renderer; build it from the sources being tested.
  if (
    (await step('renderer build', bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], {
      live: true,
    })) !== 0
  )
    checksFailed.push('renderer build');
  const playwrightReport = join(reports, 'playwright.json');
  const code = await step('browser tests (Playwright)', bin('playwright'), ['test', '--reporter=list,json'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
    live: true,
  });
  if (existsSync(playwrightReport)) {
    const { stats } = JSON.parse(readFileSync(playwrightReport, 'utf8'));
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
  } else if (code !== 0) {
    totals.failed += 1;
  }
}

// The checks go on beside the browser tests too: the vitest run ended before them (eslint, starved
// at the lowest priority, had about a minute left to run on one core while the other idled).
const statuses = await Promise.all(checkRuns);
checksFailed.push(...checks.filter((_, i) => statuses[i] !== 0).map(([label]) => label));
console.log(`\n=== checks and tests: ${seconds(testStarted)} ===`);
if (checksFailed.length > 0) console.log(`\nchecks failed: ${checksFailed.join(', ')}`);
const summary = `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`;
writeFileSync(join(reports, 'summary.txt'), `${summary}\n`);
console.log(`\n${summary}`);
process.exitCode = totals.failed > 0 || checksFailed.length > 0 || totals.passed === 0 ? 1 : 0;
