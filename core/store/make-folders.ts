import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `mkdir -p`, one level at a time. Node's `mkdirSync(path, { recursive: true })`
 * spins at full CPU for ever where mkdir answers ENOENT though the parent
 * exists (a path under /proc): `--db /proc/a/b.db` hung. Here that ENOENT is
 * thrown like any other failure.
 */
export function makeFolders(path: string, mode?: number): void {
  const missing: string[] = [];
  for (let at = path; !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, mode === undefined ? undefined : { mode });
    } catch (error) {
      // Made meanwhile by another process opening the same database: as good.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
