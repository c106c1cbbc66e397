// Vitest global setup: the CLI and the background run writer run from their
// builds in out/ (scripts/build-node.mjs), so the tests build them from the
// sources under test first; the tests then run what a user's `flowbench` runs.
// `npm test` builds them once before its vitest runs, which may overlap, and
// says so with FLOWBENCH_NODE_BUILT: two builds writing the same files at once
// could hand a spawned CLI a half-written chunk.
// @ts-expect-error -- a plain ES module script without type declarations
import { buildNode } from '../../scripts/build-node.mjs';

export default async function setup(): Promise<void> {
  if (process.env.FLOWBENCH_NODE_BUILT === '1') return;
  await (buildNode as () => Promise<unknown>)();
}
