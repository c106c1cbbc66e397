import { useCallback, useEffect, useState } from 'react';
import { toFlowbenchError } from '../../core/model/errors';

/**
 * A screen's list from the host (servers, agents), loaded on mount, and
 * `act`: runs a change, then loads the list again; a refusal is kept in
 * `message` for the screen to say, and `act` resolves false.
 */
export function useListing<T>(load: () => Promise<T>) {
  const [items, setItems] = useState<T | undefined>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const reload = useCallback(async () => setItems(await load()), [load]);
  useEffect(() => {
    void reload().catch((error: unknown) => setMessage(toFlowbenchError(error).message));
  }, [reload]);
  const act = useCallback(
    async (change: () => Promise<unknown>): Promise<boolean> => {
      setMessage(undefined);
      try {
        await change();
        await reload();
        return true;
      } catch (error) {
        setMessage(toFlowbenchError(error).message);
        return false;
      }
    },
    [reload],
  );
  return { items, message, act, reload };
}
