import type * as AiSdkPort from './ai-sdk-port';
import { loadOnce } from '../model/load-once';

/**
 * The model library: the AI SDK with its providers' clients, about 1.4 MB of
 * JavaScript that every new process used to compile and run at start, though
 * most commands never call a model (`flowbench list` took 510 ms of CPU with
 * it, 440 without). Loaded once, by the first caller. The processes that call
 * models ask for it before their first call (ProviderService.preload:
 * `flowbench mcp` while it waits, an MCP endpoint once made; `serve` and the
 * app when the editor opens a flow that may call one; `flowbench run` and
 * `test` for such a flow), so that call still finds it ready; a model called
 * without that loads it then.
 */
const library = loadOnce(() =>
  import('./ai-sdk-port').then((port) => {
    // With the library, what its first call would load (see loadFetchClasses).
    port.loadFetchClasses();
    return port;
  }),
);

/** Whether something in this process has asked for the library yet (loaded, or loading). */
export const modelLibraryRequested = (): boolean => library.current !== undefined;

export const loadModelLibrary = (): Promise<typeof AiSdkPort> => library();
