import { useEffect, useState } from 'react';
import type { SecretStore } from '../../../core/model/secrets';
import { api } from '../api/client';

/** Where keys entered now are kept, for the label beside a key field (undefined until the host answered). */
export function useSecretStore(): { store: SecretStore; label: string } | undefined {
  const [where, setWhere] = useState<{ store: SecretStore; label: string } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void api.host.info({}).then((info) => live && setWhere(info.secrets));
    return () => {
      live = false;
    };
  }, []);
  return where;
}

/** The words beside a secret's field: where it goes, and how it shows afterwards. */
export function keyFieldNote(
  where: { store: SecretStore; label: string } | undefined,
  afterwards = 'never shown again',
): string {
  return where ? `kept ${where.label}; ${afterwards}` : afterwards;
}
