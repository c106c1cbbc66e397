// Builds better-sqlite3 for Electron's ABI into out/native/, beside the Node
// build in node_modules that the CLI and the tests load: the desktop app's
// main process loads this one through better-sqlite3's `nativeBinding`.
// First a prebuilt binary (prebuild-install --runtime electron), else a build
// from source against Electron's headers (node-gyp). Both need the network;
// where there is none, this says so in one line and `npm start` opens the
// editor in the browser instead. Never fails the install.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const modules = join(root, 'node_modules');
export const ELECTRON_SQLITE = join(root, 'out', 'native', 'better_sqlite3-electron.node');

function electronVersion() {
  const file = join(modules, 'electron', 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
}

function run(command, args, cwd) {
  const result = spawnSync(process.execPath, [command, ...args], { cwd, stdio: 'ignore', timeout: 180_000 });
  return result.status === 0;
}

export function buildElectronSqlite({ quiet = false } = {}) {
  const version = electronVersion();
  const say = (line) => quiet || console.log(`electron-native: ${line}`);
  if (!version) return (say('Electron is not installed; nothing to build'), false);
  const stamp = `${ELECTRON_SQLITE}.version`;
  if (existsSync(ELECTRON_SQLITE) && existsSync(stamp) && readFileSync(stamp, 'utf8') === version) return true;
  // A copy, so the Node build in node_modules stays as it is.
  const work = mkdtempSync(join(tmpdir(), 'flowbench-electron-sqlite-'));
  try {
    cpSync(join(modules, 'better-sqlite3'), work, { recursive: true, filter: (src) => !src.includes('/build/') });
    const target = ['--runtime', 'electron', '--target', version, '--arch', process.arch];
    const built =
      run(join(modules, 'prebuild-install', 'bin.js'), target, work) ||
      run(
        join(modules, 'node-gyp', 'bin', 'node-gyp.js'),
        [
          'rebuild',
          '--release',
          `--target=${version}`,
          `--arch=${process.arch}`,
          '--dist-url=https://electronjs.org/headers',
        ],
        work,
      );
    const binary = join(work, 'build', 'Release', 'better_sqlite3.node');
    if (!built || !existsSync(binary)) {
      say(
        `no better-sqlite3 for Electron ${version} (no prebuilt binary could be fetched, nor Electron's headers to build one); \`npm start\` will open the editor in the browser`,
      );
      return false;
    }
    mkdirSync(join(root, 'out', 'native'), { recursive: true });
    copyFileSync(binary, ELECTRON_SQLITE);
    // The stamp names the Electron version it was built for; a new Electron builds again.
    writeFileSync(stamp, version);
    say(`built better-sqlite3 for Electron ${version}`);
    return true;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Electron's binary is in place (its install downloaded it): the desktop app can start. */
export const electronBinaryInstalled = () => existsSync(join(modules, 'electron', 'path.txt'));

// `--install` (npm ci's prepare): where Electron's own install could not download its binary (an
// offline machine, CI), its build of better-sqlite3 would serve nothing yet, and compiling it took
// 69 s of CPU on CI's two cores; `npm start` builds it once the binary is there.
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--install') && !electronBinaryInstalled())
    console.log(
      "electron-native: Electron's binary is not installed (it downloads on first launch); `npm start` builds better-sqlite3 for it then",
    );
  else buildElectronSqlite();
}
