import { test as base, expect, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openServices, type Services } from '../../core/host/services';
import { BIN, ROOT } from '../helpers/cli';

export interface Served {
  editorUrl: string;
  db: string;
}

/** Starts `flowbench serve` on a new database (optionally prepared) and stops it after the test. */
async function startServe(db: string): Promise<{ editorUrl: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, FLOWBENCH_DB: '' },
  });
  let stdout = '';
  const editorUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Editor: (\S+)/.exec(stdout);
      if (match?.[1] && stdout.includes('Ctrl-C')) resolve(match[1]);
    });
  });
  return {
    editorUrl,
    stop: () =>
      new Promise<void>((done) => {
        child.removeAllListeners('exit');
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

export const test = base.extend<{ served: Served }>({
  // eslint-disable-next-line no-empty-pattern
  served: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'flowbench-browser-'));
    const db = join(dir, 'browser.db');
    const serve = await startServe(db);
    await use({ editorUrl: serve.editorUrl, db });
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  },
});

/** Opens the test's database beside `serve` (SQLite allows it) to add flows a test needs. */
export function withDatabase(db: string, setup: (services: Services) => void): void {
  const services = openServices(db);
  try {
    setup(services);
  } finally {
    services.close();
  }
}

/** Waits until the editor has saved every edit. */
export async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 10_000 });
}

export { expect };
