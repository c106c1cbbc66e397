import type * as AiSdkPort from './ai-sdk-port';

/**
 * The model library: the AI SDK with its providers' clients, about 1.4 MB of
 * JavaScript that every new process used to compile and run at start, though
 * most commands never call a model (`flowbench list` took 510 ms of CPU with
 * it, 440 without). Loaded once, by the first caller. The processes that call
 * models ask for it before their first call (ProviderService.preload:
 * `flowbench mcp` and `serve` while they wait; `flowbench run` and `test` for
 * a flow that may call one), so that call still finds it ready; a model called
 * without that loads it then.
 */
let library: Promise<typeof AiSdkPort> | undefined;

export function loadModelLibrary(): Promise<typeof AiSdkPort> {
  library ??= import('./ai-sdk-port').then((port) => {
    // With the library, what its first call would load (see loadFetchClasses).
    port.loadFetchClasses();
    return port;
  });
  return library;
}
