// Builds what plain Node runs into out/: the CLI (out/cli/, so `flowbench`
// starts from JavaScript, not TypeScript compiled at every launch) and the
// background run writer (out/worker/: a worker thread does not inherit the tsx
// loader). Run by `npm ci` (prepare) and before the tests (vitest globalSetup).
//
// Both outputs sit two folders below the root, like the sources they come from
// (core/<area>/x.ts), so `new URL('../../resources/…', import.meta.url)` finds
// the same files from either.
import { build as esbuild } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sdkMessageGuards } from './sdk-message-guards.mjs';

const root = join(import.meta.dirname, '..');

/**
 * zod's namespace (`z`) carries `z.locales`: the error messages of 64 languages, 368 KB that every
 * CLI start parsed (the bundle cannot leave out a namespace's members). Flowbench speaks English,
 * which zod registers from its own file: the namespace keeps `en` alone. `flowbench list` started
 * in 380 ms instead of 398 (medians of 15, alternating).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer, resolveDir, path }) =>
      importer.includes(join('node_modules', 'zod', ''))
        ? { path: dirname(resolve(resolveDir, path)), namespace: 'zod-english-only' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, ({ path }) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: path,
      loader: 'js',
    }));
  },
};

/**
 * Every character past ASCII as a `\u` escape. esbuild writes strings, templates and names
 * that way but keeps comments as they are, and one `—` in a comment made V8 hold the whole chunk
 * in two bytes a character: twice the bytes to decode and to scan at every start. In a comment
 * the escape is text; anywhere else it means the character it stands for.
 */
const asciiOnly = (text) =>
  text.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * esbuild's build, its files written ASCII only (see asciiOnly). In three alternating runs of 10
 * here, `flowbench runs list` started in 300, 316 and 360 ms (medians) instead of 307, 325 and 388;
 * `flowbench list` in 297, 311 and 347 instead of 306, 316 and 343. Each file is written aside and
 * renamed: a process starting meanwhile reads the old build or the new one, whole. `named`: the
 * first line names the build (`// flowbench-build <hash of the rest>`). `inspect`: nothing
 * written, the metafile returned.
 */
async function build({ inspect = false, named = false, ...options }) {
  const result = await esbuild({ ...options, write: false, metafile: inspect });
  if (inspect) return result;
  for (const file of result.outputFiles) {
    const text = asciiOnly(file.text);
    const name = named ? `// flowbench-build ${createHash('sha256').update(text).digest('hex').slice(0, 32)}\n` : '';
    mkdirSync(dirname(file.path), { recursive: true });
    const aside = `${file.path}.${process.pid}.tmp`;
    writeFileSync(aside, name + text);
    renameSync(aside, file.path);
  }
  return result;
}

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The addon is loaded from node_modules; everything else is bundled, which
  // spares Node resolving and reading hundreds of module files at every start.
  // QuickJS's build finds its .wasm beside its own module (import.meta.url): it stays there too.
  external: ['better-sqlite3', '@jitl/quickjs-wasmfile-release-sync'],
  // Libraries that ship a UMD build beside their ES one (jsonc-parser) must give the ES one.
  mainFields: ['module', 'main'],
  // Bundled CommonJS packages still call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __flowbenchRequire } from 'node:module'; const require = __flowbenchRequire(import.meta.url);",
  },
  plugins: [zodEnglishOnly, sdkMessageGuards(root)],
  logLevel: 'warning',
};

export function buildWorker() {
  return build({
    ...common,
    entryPoints: ['core/store/run-writer.worker.ts'],
    outfile: 'out/worker/run-writer.worker.mjs',
  });
}

/**
 * The CLI as one CommonJS script, out/cli/main.cjs, which bin/run-built.mjs compiles with V8's code
 * cache: Node 20 keeps no compiled code of ES modules between launches, and compiling the CLI's was
 * a tenth to a third of a command's time. A module reached only by `import()` still runs only when
 * imported (esbuild wraps it), so `--help` runs the command list and an action what it uses.
 * `import.meta.url` is the script's own URL: `new URL('../../…', import.meta.url)` finds the same
 * files from out/cli/ as from core/<area>/. The first line names the build (a hash of the rest),
 * which the code cache is kept under: V8 checks only a cached script's length.
 * `inspect`: nothing written, the metafile returned (tests read what each source imports, and how).
 */
export function buildCli({ inspect = false } = {}) {
  return build({
    ...common,
    format: 'cjs',
    // "use strict" first: a statement before it (the URL's) would make the script sloppy, as ES modules never are.
    banner: { js: `"use strict";\nvar __flowbenchUrl = require('node:url').pathToFileURL(__filename).href;` },
    define: { 'import.meta.url': '__flowbenchUrl' },
    // import() of an external package (QuickJS's build) becomes require(): code V8 takes from its cache
    // has no dynamic import loader on Node 20 ("A dynamic import callback was not specified").
    supported: { 'dynamic-import': false },
    entryPoints: ['core/cli/main.ts'],
    outfile: 'out/cli/main.cjs',
    named: true,
    inspect,
  });
}

/**
 * The script of flows' views (MCP Apps): ext-apps' App and the drawing code,
 * one minified file that each view's HTML carries inline (core/mcp/view-html.ts).
 */
export function buildViewApp() {
  return build({
    absWorkingDir: root,
    entryPoints: ['renderer/mcp-view/view-app.ts'],
    outfile: 'out/views/view-app.js',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

export async function buildNode() {
  await Promise.all([buildWorker(), buildCli(), buildViewApp()]);
}

/** `--clean` (`npm run dist`) empties the three folders first (the chunks of older, split builds too). */
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--clean'))
    for (const dir of ['out/cli', 'out/worker', 'out/views']) rmSync(join(root, dir), { recursive: true, force: true });
  await buildNode();
}
