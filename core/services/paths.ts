import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user data folder Electron uses for an app named "Flowbench", so the
 * desktop app, the CLI and `serve` share one database without configuration.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Flowbench');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Flowbench');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Flowbench');
}

export const DATABASE_FILE_NAME = 'flowbench.db';

/** `--db`, then FLOWBENCH_DB, then the shared default. */
export function resolveDatabasePath(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { path: string; isDefault: boolean } {
  if (flag) return { path: flag, isDefault: false };
  if (env.FLOWBENCH_DB) return { path: env.FLOWBENCH_DB, isDefault: false };
  return { path: join(defaultDataDir(env), DATABASE_FILE_NAME), isDefault: true };
}
