import type { Metafile, OutputFile } from 'esbuild';
// @ts-expect-error -- a plain ES module script without type declarations
import { buildCli } from '../../scripts/build-node.mjs';

/** The sources the build holds, each with what it imports and how (statically, or by `import()`). */
export type Inputs = Metafile['inputs'];

/** The CLI's build: what each source imports, and the built script's text. */
export interface InspectedBuild {
  metafile: Metafile;
  outputFiles: OutputFile[];
}

let inspected: Promise<InspectedBuild> | undefined;

/** The CLI's build as `npm run build:node` makes it, described instead of written (once per test process). */
export function inspectCliBuild(): Promise<InspectedBuild> {
  inspected ??= (buildCli as (options: { inspect: boolean }) => Promise<InspectedBuild>)({ inspect: true });
  return inspected;
}

/**
 * Every source that runs when `source` runs: its static imports (and requires), theirs, and so on.
 * A source reached only through `import()` runs when it is imported: the build wraps it until then.
 */
export function loadedWith(inputs: Inputs, source: string): Set<string> {
  if (!inputs[source]) throw new Error(`the build holds no ${source}`);
  const loaded = new Set<string>();
  const next = [source];
  for (let path = next.pop(); path !== undefined; path = next.pop()) {
    if (loaded.has(path)) continue;
    loaded.add(path);
    for (const imported of inputs[path]?.imports ?? []) {
      if (imported.kind !== 'dynamic-import' && !imported.external) next.push(imported.path);
    }
  }
  return loaded;
}

/** The sources `import()` loads somewhere in the build (each runs only then). */
export const importedLater = (inputs: Inputs): Set<string> =>
  new Set(
    Object.values(inputs).flatMap((input) =>
      input.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path),
    ),
  );
