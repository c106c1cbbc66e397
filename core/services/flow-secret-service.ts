import { FlowbenchError } from '../model/errors';
import {
  FLOW_SECRET_NAME,
  FLOW_SECRET_NAME_RULE,
  MAX_FLOW_SECRET_LENGTH,
  secretNames,
  type FlowSecretListing,
  type SecretReader,
  type SecretStore,
  type WantedSecret,
} from '../model/secrets';
import { secretsReadBy } from '../model/flow-secrets';
import { nodeRegistry } from '../nodes/registry';
import type { FlowRepository } from '../store/flow-repository';
import type { VersionRepository } from '../store/version-repository';
import type { SecretVault } from './secret-vault';

/**
 * The secrets flows read as `{{secrets.name}}` (n8n's credentials, Dify's
 * secret variables): kept in the vault beside provider keys, listed by name
 * only, read by runs through `reader`.
 */
export class FlowSecretService {
  readonly reader: SecretReader = { read: (name) => this.vault.read(secretNames.flowSecret(name)) };

  /** `readers`: by secret name, the flows reading it (see secretReaders); none when not given. */
  constructor(
    private readonly vault: SecretVault,
    private readonly readers: () => ReadonlyMap<string, readonly string[]> = () => new Map(),
  ) {}

  list(): FlowSecretListing[] {
    const readers = this.readers();
    return this.keptNames().map((name) => ({
      name,
      store: this.vault.storeOf(secretNames.flowSecret(name)) as SecretStore,
      readBy: [...(readers.get(name) ?? [])],
    }));
  }

  /** The secrets flows read that are not set here, by name, each with the flows reading it: what to set before they run. */
  wanted(): WantedSecret[] {
    const kept = new Set(this.keptNames());
    return [...this.readers()]
      .filter(([name]) => !kept.has(name))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, readBy]) => ({ name, readBy: [...readBy] }));
  }

  /** The names of the secrets kept here, sorted. */
  private keptNames(): string[] {
    const prefix = secretNames.flowSecretPrefix;
    return this.vault
      .namesUnder(prefix)
      .map((kept) => kept.slice(prefix.length))
      .sort((a, b) => a.localeCompare(b));
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
      const known = this.keptNames();
      throw new FlowbenchError(
        'SECRET_NOT_FOUND',
        `no secret is named "${name}" (secrets: ${known.join(', ') || 'none'})`,
        { name },
      );
    }
    this.vault.atomically(() => this.vault.remove(secretNames.flowSecret(name)));
  }
}

/**
 * By secret name, the flows that read it, in the library's order: in their
 * draft, or in their newest published version (what an MCP client's call
 * runs), each flow once.
 */
export function secretReaders(flows: FlowRepository, versions: VersionRepository): Map<string, string[]> {
  const readers = new Map<string, string[]>();
  for (const summary of flows.list()) {
    const names = new Set(secretsReadBy(flows.get(summary.id), nodeRegistry));
    const published = versions.latest(summary.id);
    if (published) for (const name of secretsReadBy(published.snapshot, nodeRegistry)) names.add(name);
    for (const name of names) readers.set(name, [...(readers.get(name) ?? []), summary.name]);
  }
  return readers;
}
