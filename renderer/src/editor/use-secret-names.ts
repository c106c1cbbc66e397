import { useEffect, useState } from 'react';
import { api } from '../api/client';

const NONE: readonly string[] = [];

/**
 * The names of the secrets kept here, for completing `{{secrets.…}}` in a
 * node that reads them; asked each time such a node is selected, so one just
 * added on the Secrets page is offered. Nothing is asked for other nodes.
 */
export function useSecretNames(wanted: boolean): readonly string[] {
  const [names, setNames] = useState<readonly string[]>(NONE);
  useEffect(() => {
    if (!wanted) return;
    let isCurrent = true;
    void api.secrets
      .list({})
      .then((list) => isCurrent && setNames(list.map((s) => s.name)))
      .catch(() => undefined); // offered nothing: the field still takes any name typed
    return () => {
      isCurrent = false;
    };
  }, [wanted]);
  return wanted ? names : NONE;
}
