// `npm test`: type-check, lint, then every test suite (unit + integration with
// vitest, browser with Playwright when present). Prints one closing line
// `N passed, N failed[, N skipped]` computed from the runners' JSON reports.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const reports = join(root, 'test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

let checksFailed = [];
if (run('typecheck', bin('tsc'), ['-b']) !== 0) checksFailed.push('typecheck');
if (run('lint', bin('eslint'), ['.']) !== 0) checksFailed.push('eslint');
if (run('format', bin('prettier'), ['--check', '.']) !== 0) checksFailed.push('prettier');

// The desktop app's bundles (main, preload, renderer): built on every run, so a
// break in them fails CI although Electron itself cannot start here.
if (run('desktop app build (electron-vite)', bin('electron-vite'), ['build']) !== 0) checksFailed.push('app build');

const totals = { passed: 0, failed: 0, skipped: 0 };

const vitestReport = join(reports, 'vitest.json');
const vitestCode = run('unit and integration tests (vitest)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${vitestReport}`,
]);
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
} else if (vitestCode !== 0) {
  totals.failed += 1;
}

const browserDir = join(root, 'tests', 'browser');
if (existsSync(browserDir) && readdirSync(browserDir).some((f) => f.endsWith('.spec.ts'))) {
  // The browser tests drive the built renderer; build it from the sources being tested.
  if (run('renderer build', bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']) !== 0)
    checksFailed.push('renderer build');
  const playwrightReport = join(reports, 'playwright.json');
  const code = run('browser tests (Playwright)', bin('playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
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

if (checksFailed.length > 0) console.log(`\nchecks failed: ${checksFailed.join(', ')}`);
const summary = `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`;
writeFileSync(join(reports, 'summary.txt'), `${summary}\n`);
console.log(`\n${summary}`);
process.exitCode = totals.failed > 0 || checksFailed.length > 0 || totals.passed === 0 ? 1 : 0;
