import { useMemo } from 'react';
import { useAppStore } from '../store/app-store';
import { finishedOutputs } from '../store/run-slice';

/**
 * What each node gave in the run shown, once it has ended (see
 * finishedOutputs): the inspector's offers of fields inside outputs.
 */
export function useFinishedOutputs(): ReadonlyMap<string, unknown> {
  const endedRun = useAppStore((s) => (s.run && s.run.status !== 'running' ? s.run.id : undefined));
  return useMemo(() => finishedOutputs(endedRun ? useAppStore.getState().run : undefined), [endedRun]);
}
