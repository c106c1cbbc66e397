import { z } from 'zod';

/**
 * Secrets (API keys, MCP servers' env and header values) go through one port.
 * Where a process keeps them, best first: the OS keychain (CLI and `serve`,
 * through a maintained binding), Electron's safeStorage (the app), and only
 * where neither exists, plain text in the database, labelled as such wherever
 * a key is shown. The database records, per secret, which store holds it, so
 * a process reading one it cannot open says so instead of failing obscurely.
 */
export const SECRET_STORES = ['keychain', 'safe-storage', 'plain-text'] as const;
export type SecretStore = (typeof SECRET_STORES)[number];

/** What the database keeps of one secret: where it is, and for safeStorage and plain text the data itself. */
export const SealedSecretSchema = z.discriminatedUnion('store', [
  /** `id` changes at every write, so a process that cached the value sees another one replaced it. */
  z.object({ store: z.literal('keychain'), id: z.string().optional() }),
  /** Base64 of what safeStorage encrypted with the app's OS-held key. */
  z.object({ store: z.literal('safe-storage'), data: z.string() }),
  z.object({ store: z.literal('plain-text'), value: z.string() }),
]);
export type SealedSecret = z.infer<typeof SealedSecretSchema>;

/** One way of keeping secrets; the vault picks the first one available. */
export interface SecretBackend {
  readonly store: SecretStore;
  /** Whether this machine offers the store (a keychain daemon, safeStorage's key); asked once. */
  available(): boolean;
  /** Keeps `value` for `account`; returns what the database records of it. */
  seal(account: string, value: string): SealedSecret;
  /** The value back; throws when the store cannot give it. */
  open(account: string, sealed: SealedSecret): string;
  /** Forgets the value (a no-op for stores whose data lives in the database). */
  remove(account: string): void;
}

/** How each store is described wherever a key is shown. */
export const SECRET_STORE_LABELS: Record<SecretStore, string> = {
  keychain: "in the system's keychain",
  'safe-storage': "encrypted with the system's key (the desktop app's safeStorage)",
  'plain-text': 'in plain text in the database (no keychain is in use here)',
};

/** The names secrets are kept under. */
export const secretNames = {
  providerKey: (provider: string) => `provider/${provider}/apiKey`,
  serverValue: (server: string, kind: 'env' | 'header', key: string) => `server/${server}/${kind}/${key}`,
  serverPrefix: (server: string) => `server/${server}/`,
  /** A value flows read as `{{secrets.<name>}}` (Settings > Secrets, `flowbench secrets`). */
  flowSecret: (name: string) => `flow-secret/${name}`,
  flowSecretPrefix: 'flow-secret/',
};

/** A secret a flow reads as `{{secrets.<name>}}`: letters, digits, `_` and `-`, as any reference path segment. */
export const FLOW_SECRET_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const FLOW_SECRET_NAME_RULE = 'letters, digits, _ and -, at most 64';
/** A secret's value: a key, a token, a password; a longer one is not a secret but a file. */
export const MAX_FLOW_SECRET_LENGTH = 16_000;

/** One secret flows read, as listed: its name and where it is kept, never its value. */
export interface FlowSecretListing {
  name: string;
  store: SecretStore;
  /** The flows whose draft or published version reads it, by name: what removing it stops. */
  readBy: string[];
}

/** A secret flows read that is not set here: its name and the flows that read it (what cannot run yet). */
export interface WantedSecret {
  name: string;
  readBy: string[];
}

/** How a run sees the secrets its flow reads: the value, or undefined when none is set by that name. */
export interface SecretReader {
  read(name: string): string | undefined;
}

/** What a run record shows in place of a secret (and of a header named like one). */
export const HIDDEN = '•••';

/**
 * Values shorter than this are not hidden in what a run records: a one-letter
 * "secret" would turn every such letter of every output into •••.
 */
export const MIN_HIDDEN_LENGTH = 4;

/**
 * Said where a value is set (the Secrets page, `secrets set`) when it is too
 * short to be hidden: a run then records it as it is, which is not to happen unseen.
 */
export function shortSecretNote(value: string): string | undefined {
  if (value.length === 0 || value.length >= MIN_HIDDEN_LENGTH) return undefined;
  return `shorter than ${MIN_HIDDEN_LENGTH} characters: runs record it as it is, not as ${HIDDEN} (hiding it would hide that text everywhere in a run)`;
}

/**
 * `value` with every occurrence of each secret in its strings replaced by
 * •••, as CI logs hide theirs; what holds none is returned as it is (the same
 * object), so a run whose events carry no secret copies nothing.
 */
export function hideSecrets<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') {
    let text: string = value;
    for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join(HIDDEN);
    return text as T;
  }
  if (value === null || typeof value !== 'object') return value;
  let copy: Record<string, unknown> | unknown[] | undefined;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    const hidden = hideSecrets(item as unknown, secrets);
    if (hidden === item) continue;
    copy ??= Array.isArray(value) ? [...(value as unknown[])] : { ...(value as Record<string, unknown>) };
    (copy as Record<string | number, unknown>)[key] = hidden;
  }
  return (copy ?? value) as T;
}
