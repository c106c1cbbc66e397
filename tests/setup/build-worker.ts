// Vitest global setup: the background run writer runs from its build in
// out/worker/, so the tests build it from the sources under test first.
// @ts-expect-error -- a plain ES module script without type declarations
import { buildWorker } from '../../scripts/build-worker.mjs';

export default async function setup(): Promise<void> {
  await (buildWorker as () => Promise<unknown>)();
}
