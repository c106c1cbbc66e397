import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Services } from '../../core/services/open-services';
import { prepareDatabase } from './mcp';
import { BIN, ROOT } from './cli';

export interface ServeProcess {
  url: string;
  /** The editor's URL with its session token. */
  editorUrl: string;
  mcpUrl: string;
  port: number;
  token: string | undefined;
  stop(): Promise<void>;
  /** Kills the process at once (SIGKILL), as a crash or `kill -9` would; resolves when it is gone. */
  kill(): Promise<void>;
}

/** Starts `./bin/flowbench serve` (on any free port unless one is given) and reads its URL and token from stdout. */
export function startServe(
  db: string,
  extraArgs: readonly string[] = [],
  options: { port?: number; env?: NodeJS.ProcessEnv; openFileLimit?: number } = {},
): Promise<ServeProcess> {
  const args = [BIN, '--db', db, 'serve', '--port', String(options.port ?? 0), ...extraArgs];
  const spawnOptions = { cwd: ROOT, env: { ...process.env, FLOWBENCH_DB: '', ...options.env } };
  // A limit of open files (soft and hard, so that Node cannot raise it): the shell sets it, then becomes the server.
  const child =
    options.openFileLimit === undefined
      ? spawn(process.execPath, args, spawnOptions)
      : spawn(
          'sh',
          ['-c', `ulimit -n ${options.openFileLimit} && exec "$0" "$@"`, process.execPath, ...args],
          spawnOptions,
        );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const end = (signal: NodeJS.Signals) =>
    new Promise<void>((done) => {
      child.removeAllListeners('exit');
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill(signal);
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (!url || !stdout.includes('Ctrl-C')) return;
      clearTimeout(timer);
      const token = /Authorization: Bearer (\S+)/.exec(stdout)?.[1];
      resolve({
        url,
        editorUrl: /Editor: (\S+)/.exec(stdout)?.[1] ?? url,
        mcpUrl: `${url}/mcp`,
        port: Number(new URL(url).port),
        token,
        stop: () => end('SIGTERM'),
        kill: () => end('SIGKILL'),
      });
    });
  });
}

/**
 * One database and one `flowbench serve` for a whole test file (the server
 * keeps the file open, so per-test temp folders do not fit), filled by
 * `setup` before it starts, stopped and removed when the file ends.
 */
export function useServedDatabase(
  prefix: string,
  setup: (services: Services) => void,
): { db: string; serve: () => ServeProcess } {
  const dir = mkdtempSync(join(tmpdir(), `flowbench-${prefix}-`));
  const db = join(dir, `${prefix}.db`);
  let serve: ServeProcess | undefined;
  beforeAll(async () => {
    prepareDatabase(db, setup);
    serve = await startServe(db);
  });
  afterAll(async () => {
    await serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    db,
    serve: () => {
      if (!serve) throw new Error('the server starts in beforeAll');
      return serve;
    },
  };
}
