import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temporary folder per test, removed afterwards. */
export function useTempDir(): () => string {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    dir ??= mkdtempSync(join(tmpdir(), 'flowbench-test-'));
    return dir;
  };
}
