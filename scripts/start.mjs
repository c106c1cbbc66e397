// `npm start`: the desktop app, or, where Electron's binary cannot be had (it
// downloads on first launch), the same editor in the browser via `flowbench serve --open`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

const build = run(bin('electron-vite'), ['build']);
if (build !== 0) process.exit(build);
const electronReady =
  existsSync(join(root, 'node_modules', 'electron', 'path.txt')) ||
  run(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')]) === 0;
if (electronReady && run(bin('electron'), ['.']) === 0) process.exit(0);
console.error('\nThe desktop shell could not start (Electron needs its binary, downloaded on first launch).');
console.error('Opening the same editor in your browser instead: `flowbench serve --open`.\n');
process.exit(run(process.execPath, [join(root, 'bin', 'flowbench'), 'serve', '--open']));
