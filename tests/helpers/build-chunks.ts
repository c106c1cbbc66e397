import type { Metafile, OutputFile } from 'esbuild';
// @ts-expect-error -- a plain ES module script without type declarations
import { buildCli } from '../../scripts/build-node.mjs';

/** The sources each output chunk holds, and the chunks it imports statically. */
export type Outputs = Metafile['outputs'];

/** The CLI's build: what each file holds and imports, and the files' text. */
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

/** Every chunk a chunk loads before it runs: its static imports, theirs, and so on. */
export function loadedWith(outputs: Outputs, chunk: string): Set<string> {
  const loaded = new Set<string>();
  const next = [chunk];
  for (let path = next.pop(); path !== undefined; path = next.pop()) {
    if (loaded.has(path)) continue;
    loaded.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) next.push(imported.path);
    }
  }
  return loaded;
}

/** The output chunk whose path matches; throws naming the chunks when none does. */
export function chunkOf(outputs: Outputs, name: RegExp): string {
  const chunks = Object.keys(outputs);
  const found = chunks.find((path) => name.test(path));
  if (!found) throw new Error(`no chunk matches ${name} among ${chunks.join(', ')}`);
  return found;
}

/** The sources these chunks hold. */
export const sourcesOf = (outputs: Outputs, chunks: Iterable<string>): string[] =>
  [...chunks].flatMap((chunk) => Object.keys(outputs[chunk]?.inputs ?? {}));
