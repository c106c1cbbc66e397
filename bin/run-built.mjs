// Runs the CLI's build (out/cli/main.cjs, one CommonJS script) with V8's code
// cache: the bytecode of the functions a command ran, kept from an earlier
// launch of the same command, so they are not parsed and compiled again. Node
// 20 keeps no compiled code of ES modules between launches; this works on every
// Node (and Electron's, for the app's stdio entry) alike.
//
// Measured here (Node 20, medians of 8-11 launches, alternating with the split
// ES module build it replaced), spawn to exit: `flowbench list` 164 ms instead
// of 195, a template flow's run 188 instead of 232, a 3x3 model flow's 853
// instead of 920; `flowbench mcp` ready for tools/list in 183 instead of 232.
// The first launch after a build compiles the whole script and writes its
// cache as it exits: about 140 ms slower, once. Another command's first launch
// starts from that cache (`runs` in 190 ms instead of 355 compiling it all).
//
// The cache lives in the user's cache folder, one file per build, V8 and
// command. Where that folder cannot be written it lives in a folder of this
// user's own in the temporary one, never in one others may write: whoever
// can write a code cache chooses the code that runs.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, as Node's own.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/** Caches kept at most (about 2 MB each): the oldest go when one is written. */
const KEEP = 40;
/** Another build's caches go when one is written and they are older than this: an upgrade leaves none behind for long. */
const OTHER_BUILD_KEPT_MS = 24 * 60 * 60 * 1000;

/** The user's cache folder for code, where the platform has one. */
function userFolder() {
  const home = homedir();
  if (process.platform === 'win32') {
    const local = process.env.LOCALAPPDATA;
    return local ? join(local, 'Flowbench', 'Cache', 'code') : undefined;
  }
  if (process.platform === 'darwin') return home ? join(home, 'Library', 'Caches', 'Flowbench', 'code') : undefined;
  const xdg = process.env.XDG_CACHE_HOME;
  return xdg ? join(xdg, 'Flowbench', 'code') : home ? join(home, '.cache', 'Flowbench', 'code') : undefined;
}

/** Whether this process may make or write `folder`: the nearest one of its folders that exists is a writable folder. */
function writable(folder) {
  let at = folder;
  while (!existsSync(at)) {
    if (dirname(at) === at) return false;
    at = dirname(at);
  }
  try {
    accessSync(at, constants.W_OK);
    return statSync(at).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where the user's cache folder cannot be written (a container run as a user whose home is `/`): a
 * folder of this user's own in the temporary one. Used only when it is a real folder that this user
 * alone may use: in a shared temporary folder anyone can make the name first, and a link there
 * would have the cache written over another file.
 */
function privateTempFolder() {
  const uid = process.getuid?.();
  const folder = join(tmpdir(), uid === undefined ? 'flowbench-code' : `flowbench-code-${uid}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if (error.code !== 'EEXIST') return undefined;
  }
  try {
    const stat = lstatSync(folder);
    const ours = uid === undefined || (stat.uid === uid && (stat.mode & 0o077) === 0);
    return stat.isDirectory() && ours ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** The folder caches go in: the user's cache folder, else a private one in the temporary folder; undefined when neither. */
function cacheFolder() {
  const preferred = userFolder();
  return preferred && writable(preferred) ? preferred : privateTempFolder();
}

/** The command a launch runs (`run`, `mcp`, …): each has its own cache, holding the code it runs. */
function commandOf(argv) {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--db') i++;
    else if (!arg.startsWith('-')) return /^[a-z][a-z-]{0,30}$/.test(arg) ? arg : 'other';
  }
  return 'none';
}

/** Reads a cache only when this user owns it and nobody else may write it. */
function readOwned(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes the cache aside and renames it (launches at once read a whole file or none); then removes old ones. */
function writeCache(folder, path, data, build) {
  try {
    // One level at a time, as core/store/make-folders.ts: Node's recursive mkdirSync spins for ever
    // where mkdir answers ENOENT though the parent exists (an XDG_CACHE_HOME under /proc).
    const missing = [];
    for (let at = folder; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
    for (const at of missing) mkdirSync(at, { mode: 0o700 });
    const aside = `${path}.${process.pid}.tmp`;
    writeFileSync(aside, data, { mode: 0o600 });
    renameSync(aside, path);
    const now = Date.now();
    for (const [i, { name, at }] of cachesByAge(folder).entries()) {
      if (i >= KEEP || (!name.startsWith(`${build}-`) && now - at > OTHER_BUILD_KEPT_MS))
        unlinkSync(join(folder, name));
    }
  } catch {
    // A cache that cannot be written costs the next launch its compile, nothing else.
  }
}

/** The caches in `folder`, newest first, each with when it was written. */
function cachesByAge(folder) {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.cache'))
    .map((name) => ({ name, at: statSync(join(folder, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
}

/** The newest cache in `folder` whose name starts with `prefix`; undefined when there is none. */
function newestOf(folder, prefix) {
  try {
    const newest = cachesByAge(folder).find(({ name }) => name.startsWith(prefix));
    return newest && join(folder, newest.name);
  } catch {
    return undefined;
  }
}

/** Runs the built CLI at `file` as Node runs a CommonJS main module, from the code cache when there is one. */
export function runBuilt(file) {
  // The build is ASCII only (scripts/build-node.mjs): read as latin1, the same text, in 3-10 ms instead of 22-24 (UTF-8 is checked).
  const text = readFileSync(file, 'latin1');
  const build = /^\/\/ flowbench-build (\w+)\n/.exec(text)?.[1];
  const folder = process.env.NODE_DISABLE_COMPILE_CACHE === '1' || !build ? undefined : cacheFolder();
  // Node and Electron's Node (the app's stdio entry) each have their own V8: a cache for each, not one they take turns to replace.
  const v8 = `${process.versions.v8}-${process.arch}`.replace(/[^\w.-]/g, '_');
  const path = folder && join(folder, `${build}-${v8}-${commandOf(process.argv.slice(2))}.cache`);
  const own = path ? readOwned(path) : undefined;
  // A command's first launch takes another command's cache of this build (V8 takes any cache of the same
  // script; what it lacks compiles as it runs) instead of compiling the whole script: its own, written at
  // exit, then holds both.
  const fallback = path && own === undefined ? newestOf(folder, `${build}-${v8}-`) : undefined;
  const cachedData = own ?? (fallback ? readOwned(fallback) : undefined);
  // The wrapper Node puts around a CommonJS module, kept on the first line so lines match the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, {
    filename: file,
    cachedData,
  });
  if (path && (own === undefined || script.cachedDataRejected)) {
    // At exit the script's cache holds every function this command ran, not only the start's.
    process.once('exit', () => writeCache(folder, path, script.createCachedData(), build));
  }
  const main = { exports: {} };
  script.runInThisContext()(main.exports, createRequire(file), main, file, dirname(file));
}
