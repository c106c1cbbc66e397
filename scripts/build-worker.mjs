// Builds the background run writer (core/store/run-writer.worker.ts) into
// out/worker/: a worker thread does not inherit the tsx loader the CLI runs
// under. Run by `npm ci` (prepare) and before the tests (vitest globalSetup).
import { build } from 'esbuild';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

export function buildWorker() {
  return build({
    absWorkingDir: root,
    entryPoints: ['core/store/run-writer.worker.ts'],
    outfile: 'out/worker/run-writer.worker.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildWorker();
