// Vitest global setup: the CLI and the background run writer run from their
// builds in out/ (scripts/build-node.mjs), so the tests build them from the
// sources under test first; the tests then run what a user's `flowbench` runs.
// @ts-expect-error -- a plain ES module script without type declarations
import { buildNode } from '../../scripts/build-node.mjs';

export default async function setup(): Promise<void> {
  await (buildNode as () => Promise<unknown>)();
}
