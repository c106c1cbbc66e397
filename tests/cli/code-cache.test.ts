import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

/** `flowbench list` with its code cache in `cache` (XDG_CACHE_HOME); the cache files of `list` after it exited. */
async function listWith(cache: string, env: NodeJS.ProcessEnv = {}) {
  const result = await runCli(['--db', join(cache, 'f.db'), 'list'], { XDG_CACHE_HOME: cache, ...env });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('no flows yet');
  const folder = join(cache, 'Flowbench', 'code');
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('-list.cache'));
  } catch {
    // No folder: nothing was written.
  }
  return names.map((name) => ({ path: join(folder, name), ...statSync(join(folder, name)) }));
}

describe("the CLI's code cache (bin/run-built.mjs)", () => {
  it('a command writes its compiled code as it exits, and the next launch takes it as it is', async () => {
    const cache = tempDir();
    const [written, ...more] = await listWith(cache);
    expect(more).toEqual([]);
    expect(written!.size).toBeGreaterThan(100_000);
    // Only this user may read or write it: a cache is code that runs.
    expect(written!.mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, 'Flowbench', 'code')).mode & 0o777).toBe(0o700);
    // V8 took it: a cache it refused would be written again at exit.
    const [again] = await listWith(cache);
    expect(again!.mtimeMs).toBe(written!.mtimeMs);
    expect(again!.ino).toBe(written!.ino);
  });

  it('a broken cache, or one others may write, is not used: the command runs, and writes its own in its place', async () => {
    const cache = tempDir();
    const [written] = await listWith(cache);
    writeFileSync(written!.path, 'not a code cache');
    const [rewritten] = await listWith(cache);
    expect(rewritten!.size).toBeGreaterThan(100_000);

    chmodSync(rewritten!.path, 0o666);
    const [own] = await listWith(cache);
    expect(own!.ino).not.toBe(rewritten!.ino);
    expect(own!.mode & 0o777).toBe(0o600);
  });

  it("writing a cache removes another build's caches older than a day; a newer one stays (a checkout beside)", async () => {
    const cache = tempDir();
    const folder = join(cache, 'Flowbench', 'code');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const old = join(folder, '0123456789abcdef0123456789abcdef-v8-x64-list.cache');
    const recent = join(folder, 'fedcba9876543210fedcba9876543210-v8-x64-list.cache');
    writeFileSync(old, 'an older build', { mode: 0o600 });
    writeFileSync(recent, 'a build used today', { mode: 0o600 });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    const written = await listWith(cache);
    // This build's, written, and the recent one of the other build.
    expect(written).toHaveLength(2);
    expect(written.map((file) => file.path)).toContain(recent);
    expect(existsSync(old)).toBe(false);
  });

  it("a command's first launch starts from another command's cache of the build, and the cache it writes holds both", async () => {
    const helpCache = async (cache: string) => {
      expect((await runCli(['--help'], { XDG_CACHE_HOME: cache })).code).toBe(0);
      const folder = join(cache, 'Flowbench', 'code');
      const name = readdirSync(folder).find((n) => n.endsWith('-none.cache'));
      return statSync(join(folder, name!)).size;
    };
    const alone = await helpCache(join(tempDir(), 'alone'));
    const after = join(tempDir(), 'after-list');
    const [list] = await listWith(after);
    // --help runs a part of what list runs: from list's cache, its own holds list's code too (without, it
    // compiled the whole script, about 350 ms here instead of 190, and held only its own).
    expect(alone).toBeLessThan(list!.size * 0.9);
    expect(await helpCache(after)).toBeGreaterThan(list!.size * 0.95);
  });

  it("where the user's cache folder cannot be written, a folder of this user's own in the temporary one serves; never one others may write", async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a-file'), '');
    const env = { XDG_CACHE_HOME: join(root, 'a-file', 'cache'), TMPDIR: join(root, 'tmp') };
    mkdirSync(env.TMPDIR);
    const list = () => runCli(['--db', join(root, 'f.db'), 'list'], env);
    expect((await list()).code).toBe(0);
    const own = join(env.TMPDIR, `flowbench-code-${process.getuid!()}`);
    expect(statSync(own).mode & 0o777).toBe(0o700);
    expect(readdirSync(own).filter((name) => name.endsWith('-list.cache'))).toHaveLength(1);

    // Made by someone else first, or open to others: not used.
    rmSync(own, { recursive: true });
    mkdirSync(own, { mode: 0o777 });
    chmodSync(own, 0o777);
    expect((await list()).code).toBe(0);
    expect(readdirSync(own)).toEqual([]);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node’s own', async () => {
    const cache = tempDir();
    expect(await listWith(cache, { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual([]);
  });
});
