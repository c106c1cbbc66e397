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
};
