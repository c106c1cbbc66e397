import type { SecretStore } from '../../../core/model/secrets';
import { useHostInfo } from '../api/use-host-info';

/** Where keys entered now are kept, for the label beside a key field (undefined until the host answered). */
export function useSecretStore(): { store: SecretStore; label: string } | undefined {
  return useHostInfo()?.secrets;
}

/** The words beside a secret's field: where it goes, and how it shows afterwards. */
export function keyFieldNote(
  where: { store: SecretStore; label: string } | undefined,
  afterwards = 'never shown again',
): string {
  return where ? `kept ${where.label}; ${afterwards}` : afterwards;
}
