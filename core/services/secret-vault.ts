import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { FlowbenchError } from '../model/errors';
import {
  SealedSecretSchema,
  SECRET_STORE_LABELS,
  type SealedSecret,
  type SecretBackend,
  type SecretStore,
} from '../model/secrets';
import type { SettingsRepository } from '../store/settings-repository';

const SECRETS_KEY = 'secrets';
const DATABASE_ID_KEY = 'database.id';
const SecretsSchema = z.record(z.string(), SealedSecretSchema);

/** Keeps nothing anywhere else: the value sits in the database, and every listing says so. */
export const plainTextBackend: SecretBackend = {
  store: 'plain-text',
  available: () => true,
  seal: (_account, value) => ({ store: 'plain-text', value }),
  open: (_account, sealed) => {
    if (sealed.store !== 'plain-text') throw new Error('not a plain-text secret');
    return sealed.value;
  },
  remove: () => undefined,
};

/**
 * The secret port over one database: new secrets go to the first available
 * backend; each secret's record says which store holds it, so a secret is read
 * back from the store that has it, whatever this process prefers.
 */
export class SecretVault {
  private chosen: SecretBackend | undefined;
  /**
   * Values opened, by name, with the record they came from: a model call asks
   * for its key every time, and the keychain is slow to ask. A record changed
   * by any process (a new keychain id, new ciphertext) is opened afresh.
   */
  private readonly opened = new Map<string, { record: string; value: string }>();
  /** While `atomically` runs: how to give each keychain entry touched its previous value back. */
  private undo: (() => void)[] | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    /** Best first; plain text is always the last resort. */
    private readonly backends: readonly SecretBackend[],
  ) {}

  /** Where this process puts new secrets (the keychain is asked once whether it answers). */
  get store(): SecretStore {
    return this.backend().store;
  }

  get label(): string {
    return SECRET_STORE_LABELS[this.store];
  }

  /** Which store holds `name`, if it is kept. */
  storeOf(name: string): SecretStore | undefined {
    return this.all()[name]?.store;
  }

  read(name: string): string | undefined {
    const sealed = this.all()[name];
    if (!sealed) return undefined;
    const record = JSON.stringify(sealed);
    const cached = this.opened.get(name);
    if (cached?.record === record) return cached.value;
    const backend = this.backends.find((b) => b.store === sealed.store) ?? this.fallback(sealed);
    try {
      const value = backend.open(this.account(name), sealed);
      this.opened.set(name, { record, value });
      return value;
    } catch (error) {
      throw new FlowbenchError(
        'SECRET_UNAVAILABLE',
        `the secret ${name} is kept ${SECRET_STORE_LABELS[sealed.store]}, which this process cannot open (${error instanceof Error ? error.message : String(error)}); enter it again here to keep it ${this.label}`,
        { name, store: sealed.store },
      );
    }
  }

  /**
   * Runs `change` (writes to this vault and to settings) in one database
   * transaction. The keychain is outside it: when `change` throws, each entry
   * it wrote or removed there gets its previous value back (or goes, when it
   * had none), so the records the rollback restores read what they read before.
   */
  atomically<T>(change: () => T): T {
    if (this.undo) return change();
    const undo: (() => void)[] = [];
    this.undo = undo;
    try {
      return this.settings.transaction(change);
    } catch (error) {
      for (const step of undo.reverse()) step();
      throw error;
    } finally {
      this.undo = undefined;
    }
  }

  /** Inside `atomically`: notes how to put `name`'s entry in `store` back before it is changed. */
  private noteUndo(name: string, store: SecretStore): void {
    if (!this.undo) return;
    // The account is taken now: a rollback may take back the database id it is named by.
    const account = this.account(name);
    const backend = this.backends.find((b) => b.store === store);
    if (!backend) return;
    let previous: string | undefined;
    try {
      previous = this.all()[name]?.store === store ? this.read(name) : undefined;
    } catch {
      previous = undefined; // unreadable before: nothing to give back
    }
    this.undo.push(() => {
      try {
        if (previous === undefined) backend.remove(account);
        else backend.seal(account, previous);
      } catch {
        // A keychain refusing now as well keeps what it has; the database is back as it was either way.
      }
    });
  }

  write(name: string, value: string): void {
    const all = this.all();
    const previous = all[name];
    const backend = this.backend();
    this.noteUndo(name, backend.store);
    if (previous && previous.store !== backend.store) this.noteUndo(name, previous.store);
    all[name] = backend.seal(this.account(name), value);
    // A value moving to another store must not stay behind in the old one.
    if (previous && previous.store !== backend.store) this.removeFrom(name, previous);
    this.settings.set(SECRETS_KEY, all);
  }

  remove(name: string): void {
    const all = this.all();
    const sealed = all[name];
    if (!sealed) return;
    this.noteUndo(name, sealed.store);
    this.removeFrom(name, sealed);
    delete all[name];
    this.settings.set(SECRETS_KEY, all);
  }

  /** The names kept under `prefix` (a server's values). */
  namesUnder(prefix: string): string[] {
    return Object.keys(this.all()).filter((name) => name.startsWith(prefix));
  }

  private all(): Record<string, SealedSecret> {
    return { ...this.settings.get(SECRETS_KEY, SecretsSchema, {}) };
  }

  private backend(): SecretBackend {
    this.chosen ??= this.backends.find((b) => b.available()) ?? plainTextBackend;
    return this.chosen;
  }

  /** A store this process has no backend for (safeStorage outside the app) cannot be opened. */
  private fallback(sealed: SealedSecret): SecretBackend {
    if (sealed.store === 'plain-text') return plainTextBackend;
    return {
      ...plainTextBackend,
      open: () => {
        throw new Error(sealed.store === 'safe-storage' ? 'only the desktop app holds its key' : 'no keychain here');
      },
    };
  }

  private removeFrom(name: string, sealed: SealedSecret): void {
    try {
      this.backends.find((b) => b.store === sealed.store)?.remove(this.account(name));
    } catch {
      // The keychain refusing to forget leaves an orphan entry there, never a value in use.
    }
  }

  /**
   * Keychain entries are named per database, so two databases (a test's, the
   * app's) never share or clobber a key; the id survives the file being moved.
   */
  private account(name: string): string {
    let id = this.settings.get(DATABASE_ID_KEY, z.string().optional(), undefined);
    if (!id) {
      id = randomUUID();
      this.settings.set(DATABASE_ID_KEY, id);
    }
    return `${id}/${name}`;
  }
}
