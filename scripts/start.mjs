// `npm start`: the desktop app; or, where Electron's binary or its build of
// better-sqlite3 cannot be had (both download on an online machine), the same
// editor in the browser via `flowbench serve --open`, said in one line.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildNode } from './build-node.mjs';
import { buildElectronSqlite, electronBinaryInstalled } from './electron-native.mjs';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (command, args, stdio = 'inherit') => spawnSync(command, args, { cwd: root, stdio }).status ?? 1;

// The CLI, the run writer's worker and the views' script too: the app loads the worker and the
// views' script from out/, and a stale one would run code the sources no longer say.
await buildNode();
const build = run(bin('electron-vite'), ['build']);
if (build !== 0) process.exit(build);
const electronReady =
  electronBinaryInstalled() ||
  // Quiet: offline, the download's stack trace would bury the one line below that says what happens.
  run(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], 'ignore') === 0;
const missing = !electronReady
  ? "Electron's binary (it downloads on first launch)"
  : !buildElectronSqlite({ quiet: true })
    ? 'better-sqlite3 built for Electron (`npm run build:electron-native` fetches or builds it)'
    : undefined;
if (!missing && run(bin('electron'), ['.']) === 0) process.exit(0);
if (missing)
  console.error(`The desktop app cannot start without ${missing}; opening the editor in your browser instead.`);
process.exit(run(process.execPath, [join(root, 'bin', 'flowbench'), 'serve', '--open']));
