import type { HostEvent } from '../../../core/api/contract';

/** A run that ended here, or a change in the database file (another process's runs): lists of runs ask again. */
export const runsMayHaveChanged = (event: HostEvent): boolean =>
  event.type === 'run'
    ? event.event.type === 'run.finished'
    : event.type === 'runs.changed' || (event.type === 'flows.changed' && event.flowIds.length === 0);
