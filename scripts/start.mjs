// `npm start`: builds and opens the desktop app. Electron's binary is fetched
// on first launch; where it cannot be (an offline machine), say so plainly.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const app = spawnSync(bin('electron'), ['.'], { cwd: root, stdio: 'inherit' });
if (app.status !== 0) {
  console.error(
    '\nThe desktop shell could not start (Electron downloads its binary on first launch and needs the network for that).\n' +
      'Everything else works without it: see `./bin/flowbench --help`.',
  );
}
process.exit(app.status ?? 1);
