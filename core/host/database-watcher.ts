import type { Services } from '../services/open-services';
import type { ApiHost } from './api-host';

/** How often the database file is looked at for other connections' commits. */
const WATCH_EVERY_MS = 1000;

/**
 * Tells open editors (a `serve`'s, the desktop app's windows) what other
 * connections committed to the database file:
 * edits made by other processes (the CLI, another Flowbench) as flows.changed,
 * which has them read the flow list and the open flow again; runs alone (an
 * MCP client's calls, this host's own run writer, which commits on a
 * connection of its own) as runs.changed, which has lists of runs ask again
 * and leaves the open flow be. Which of the two is told by the flows'
 * fingerprint (FlowRepository.fingerprint), read only when data_version moved.
 * Returns the function that stops watching.
 */
export function watchDatabase(services: Services, api: ApiHost): () => void {
  const sqlite = services.database.sqlite;
  const dataVersion = () => sqlite.pragma('data_version', { simple: true }) as number;
  let version = dataVersion();
  let fingerprint = services.flows.fingerprint();
  // This host's own edits do not move data_version (its connection made them); they move the fingerprint,
  // which is read again, without telling anyone, when nothing else was committed meanwhile.
  let ownEdits = false;
  const unsubscribe = api.subscribe((event) => {
    if (event.type === 'flows.changed' && event.flowIds.length > 0) ownEdits = true;
  });
  const watcher = setInterval(() => {
    // Closed under it (a host closing its services before its watcher): nothing is left to watch.
    if (!sqlite.open) return stop();
    const now = dataVersion();
    if (now === version) {
      if (ownEdits) fingerprint = services.flows.fingerprint();
      ownEdits = false;
      return;
    }
    version = now;
    const current = services.flows.fingerprint();
    const flowsChanged = current !== fingerprint;
    fingerprint = current;
    ownEdits = false;
    api.emit(flowsChanged ? { type: 'flows.changed', flowIds: [] } : { type: 'runs.changed' });
  }, WATCH_EVERY_MS);
  watcher.unref();
  function stop(): void {
    clearInterval(watcher);
    unsubscribe();
  }
  return stop;
}
