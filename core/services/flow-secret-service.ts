import { FlowbenchError } from '../model/errors';
import {
  FLOW_SECRET_NAME,
  FLOW_SECRET_NAME_RULE,
  MAX_FLOW_SECRET_LENGTH,
  secretNames,
  type FlowSecretListing,
  type SecretReader,
  type SecretStore,
} from '../model/secrets';
import type { SecretVault } from './secret-vault';

/**
 * The secrets flows read as `{{secrets.name}}` (n8n's credentials, Dify's
 * secret variables): kept in the vault beside provider keys, listed by name
 * only, read by runs through `reader`.
 */
export class FlowSecretService {
  readonly reader: SecretReader = { read: (name) => this.vault.read(secretNames.flowSecret(name)) };

  constructor(private readonly vault: SecretVault) {}

  list(): FlowSecretListing[] {
    const prefix = secretNames.flowSecretPrefix;
    return this.vault
      .namesUnder(prefix)
      .map((kept) => kept.slice(prefix.length))
      .sort((a, b) => a.localeCompare(b))
      .map((name) => ({ name, store: this.vault.storeOf(secretNames.flowSecret(name)) as SecretStore }));
  }

  /** Adds the secret, or replaces its value. */
  set(name: string, value: string): void {
    if (!FLOW_SECRET_NAME.test(name)) {
      throw new FlowbenchError('USAGE_ERROR', `"${name}" cannot name a secret: ${FLOW_SECRET_NAME_RULE}`);
    }
    if (value === '') throw new FlowbenchError('USAGE_ERROR', `the secret ${name} has no value`);
    if (value.length > MAX_FLOW_SECRET_LENGTH) {
      throw new FlowbenchError(
        'USAGE_ERROR',
        `the secret ${name} is ${value.length} characters long; at most ${MAX_FLOW_SECRET_LENGTH}`,
      );
    }
    this.vault.atomically(() => this.vault.write(secretNames.flowSecret(name), value));
  }

  /** Forgets it; a name not kept is SECRET_NOT_FOUND, so a typo is not taken for done. */
  remove(name: string): void {
    if (this.vault.storeOf(secretNames.flowSecret(name)) === undefined) {
      const known = this.list().map((s) => s.name);
      throw new FlowbenchError(
        'SECRET_NOT_FOUND',
        `no secret is named "${name}" (secrets: ${known.join(', ') || 'none'})`,
        { name },
      );
    }
    this.vault.atomically(() => this.vault.remove(secretNames.flowSecret(name)));
  }
}
