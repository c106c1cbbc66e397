import { spawn } from 'node:child_process';
import { ROOT } from './cli';

export interface HeldLock {
  /** Resolves when the other process has let go of the lock and exited. */
  released: Promise<void>;
}

/**
 * Another process holding the database's write lock for `ms`, as the app or
 * a second CLI would. `exclusive` also keeps readers out (locking_mode
 * EXCLUSIVE), as a process that opened the file exclusively would.
 * Resolves once the lock is held.
 */
export function holdWriteLock(db: string, ms: number, options: { exclusive?: boolean } = {}): Promise<HeldLock> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(db)});
    ${options.exclusive ? "db.pragma('locking_mode = EXCLUSIVE');" : ''}
    db.exec('BEGIN EXCLUSIVE');
    db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('test.lock', '1')").run();
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});
  `;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const released = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before locking: ${stderr}`)));
    child.stdout.once('data', () => resolve({ released }));
  });
}
