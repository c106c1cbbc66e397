/**
 * `lib`: the CLI's heavy half (runtime.ts), loaded once before the first
 * action. An ES module binding is live, so every command sees it after
 * `loadLib()` even though it imported `lib` while it was still unset.
 */
import type * as RuntimeModule from './runtime';

type Runtime = typeof RuntimeModule;

export let lib: Runtime = undefined as unknown as Runtime;
let loaded = false;

export async function loadLib(): Promise<void> {
  if (loaded) return;
  lib = await import('./runtime');
  loaded = true;
}
