// Whether the CLI built at install time (out/cli/, by `npm ci` or `npm run
// build:node`) is what runs: bin/flowbench runs the TypeScript sources
// through tsx instead when one changed after that build, and `npm run bench`
// says so when that happens while it measures.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const builtCli = `${root}out/cli/main.cjs`;

/** True when some .ts file under `dir` that goes into the build (not a test) is newer than `since` (milliseconds). */
function changedSince(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() ? changedSince(path, since) : isBuilt(entry.name) && statSync(path).mtimeMs > since)
      return true;
  }
  return false;
}

const isBuilt = (name) => name.endsWith('.ts') && !name.endsWith('.test.ts');

/** True when the build exists and no source it was built from changed since. */
export function isFresh() {
  if (!existsSync(builtCli)) return false;
  const sources = `${root}core`;
  return !existsSync(sources) || !changedSince(sources, statSync(builtCli).mtimeMs);
}
