import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../tests/helpers/temp';
import type { SecretBackend } from '../model/secrets';
import { SECRET_MASK } from '../model/tools';
import { keychainBackend, type KeychainBinding } from './keychain-backend';
import { openServices, type Services } from './open-services';

/**
 * The secret port over a real database file. The OS keychain is replaced by a
 * stand-in for @napi-rs/keyring's Entry (this machine has no Secret Service);
 * everything else is the real code.
 */
const tempDir = useTempDir();
const KEY = 'sk-test-0123456789abcdef';
const open: Services[] = [];
afterEach(() => {
  for (const services of open.splice(0)) services.close();
});

/**
 * A keychain that works, kept in a map: what a Mac or a Linux desktop offers.
 * `refuseWrite(n)` makes the nth write from now fail, as a keychain locked for a moment does.
 */
function fakeKeychain() {
  const entries = new Map<string, string>();
  const writes: string[] = [];
  let refuseAt = Infinity;
  class Entry {
    constructor(
      private readonly service: string,
      private readonly account: string,
    ) {}
    private get key() {
      return `${this.service}:${this.account}`;
    }
    setPassword(password: string) {
      if (!this.account.endsWith('availability-probe')) {
        if (writes.length + 1 === refuseAt) {
          refuseAt = Infinity;
          throw new Error("Couldn't access platform storage: locked");
        }
        writes.push(this.account);
      }
      entries.set(this.key, password);
    }
    getPassword() {
      return entries.get(this.key) ?? null;
    }
    deletePassword() {
      return entries.delete(this.key);
    }
  }
  const binding: KeychainBinding = { Entry };
  const refuseWrite = (n: number) => (refuseAt = writes.length + n);
  return { binding, entries, writes, refuseWrite };
}

/** What @napi-rs/keyring does where there is no keychain daemon (this machine): reads find nothing, writes fail. */
const noKeychain: KeychainBinding = {
  Entry: class {
    getPassword(): string | null {
      return null;
    }
    setPassword(): void {
      throw new Error("Couldn't access platform storage: AccessDenied");
    }
    deletePassword(): boolean {
      throw new Error("Couldn't access platform storage: AccessDenied");
    }
  },
};

function services(file: string, secretBackends: readonly SecretBackend[]): Services {
  const opened = openServices(join(tempDir(), file), { secretBackends });
  open.push(opened);
  return opened;
}
const fileHas = (file: string, text: string) => readFileSync(join(tempDir(), file)).includes(text);

describe('the secret port', () => {
  it('keeps a provider key in the keychain: the database file never holds it, the provider call gets it', () => {
    const { binding, entries } = fakeKeychain();
    const s = services('keychain.db', [keychainBackend(() => binding)]);
    s.providers.set({ name: 'paid', kind: 'openai', apiKey: KEY });
    s.close();
    open.pop();

    expect(fileHas('keychain.db', KEY)).toBe(false);
    expect([...entries.values()]).toEqual([KEY]);
    const again = services('keychain.db', [keychainBackend(() => binding)]);
    expect(again.providers.resolve('paid').apiKey).toBe(KEY);
    expect(again.providers.list().find((p) => p.name === 'paid')).toMatchObject({
      apiKey: 'settings',
      keyStore: 'keychain',
    });
    expect(again.secrets.label).toBe("in the system's keychain");

    again.providers.remove('paid');
    expect(entries.size).toBe(0);
  });

  it('falls back to plain text, labelled, where no keychain answers', () => {
    const s = services('plain.db', [keychainBackend(() => noKeychain)]);
    expect(s.secrets.store).toBe('plain-text');
    expect(s.secrets.label).toMatch(/plain text in the database/);
    s.providers.set({ name: 'paid', kind: 'openai', apiKey: KEY });
    expect(s.providers.list().find((p) => p.name === 'paid')?.keyStore).toBe('plain-text');
    expect(s.providers.resolve('paid').apiKey).toBe(KEY);
  });

  it('an edit without a key keeps it for the editor, and drops it for `providers set`', () => {
    const s = services('keep.db', []);
    s.providers.set({ name: 'paid', kind: 'openai', apiKey: KEY });
    s.providers.set({ name: 'paid', kind: 'openai', defaultModel: 'gpt-4o' }, false, { keepKey: true });
    expect(s.providers.resolve('paid')).toMatchObject({ apiKey: KEY, defaultModel: 'gpt-4o' });
    s.providers.set({ name: 'paid', kind: 'openai' });
    expect(s.providers.resolve('paid').apiKey).toBeUndefined();
  });

  it('moves a key an older Flowbench kept in the providers setting into the keychain', () => {
    const s = services('legacy.db', []);
    const path = s.database.path;
    s.close();
    open.pop();
    const raw = new Database(path);
    const legacy = { providers: [{ name: 'paid', kind: 'openai', apiKey: KEY, streaming: true }] };
    raw.prepare("INSERT INTO settings (key, value) VALUES ('providers', ?)").run(JSON.stringify(legacy));
    raw.close();

    const { binding, entries } = fakeKeychain();
    const upgraded = services('legacy.db', [keychainBackend(() => binding)]);
    expect(upgraded.providers.list().find((p) => p.name === 'paid')?.keyStore).toBe('keychain');
    expect([...entries.values()]).toEqual([KEY]);
    upgraded.close();
    open.pop();
    const check = new Database(path, { readonly: true });
    const row = check.prepare("SELECT value FROM settings WHERE key = 'providers'").get() as { value: string };
    check.close();
    expect(row.value).not.toContain(KEY);
  });

  it("says which store holds a key this process cannot open (the app's safeStorage, read by the CLI)", () => {
    const appSafeStorage: SecretBackend = {
      store: 'safe-storage',
      available: () => true,
      seal: (_account, value) => ({ store: 'safe-storage', data: Buffer.from(value).reverse().toString('base64') }),
      open: (_account, sealed) =>
        sealed.store === 'safe-storage' ? Buffer.from(sealed.data, 'base64').reverse().toString() : '',
      remove: () => undefined,
    };
    const app = services('shared.db', [appSafeStorage]);
    app.providers.set({ name: 'paid', kind: 'anthropic', apiKey: KEY });
    app.close();
    open.pop();
    expect(fileHas('shared.db', KEY)).toBe(false);

    const cli = services('shared.db', [keychainBackend(() => noKeychain)]);
    expect(() => cli.providers.resolve('paid')).toThrow(
      expect.objectContaining({ code: 'SECRET_UNAVAILABLE', message: expect.stringMatching(/safeStorage/) }),
    );
    // Entering it again in the CLI keeps it where the CLI can: here, plain text.
    cli.providers.set({ name: 'paid', kind: 'anthropic', apiKey: KEY });
    expect(cli.providers.resolve('paid').apiKey).toBe(KEY);
  });

  it("keeps a server's env values in the keychain, masked in the setting, through a rename and a removal", () => {
    const { binding, entries, writes } = fakeKeychain();
    const s = services('servers.db', [keychainBackend(() => binding)]);
    s.servers.set({ name: 'files', transport: 'stdio', command: 'node', env: { TOKEN: KEY, MODE: 'fast' } });
    expect(s.servers.list()[0]).toMatchObject({
      config: { env: { TOKEN: SECRET_MASK, MODE: SECRET_MASK } },
      secretStore: 'keychain',
    });
    expect(s.servers.configs()[0]).toMatchObject({ env: { TOKEN: KEY, MODE: 'fast' } });
    expect(fileHas('servers.db', KEY)).toBe(false);
    // Saved again as the editor sends it (masks), with one value changed: only that one is written.
    writes.length = 0;
    s.servers.set({ name: 'files', transport: 'stdio', command: 'node', env: { TOKEN: SECRET_MASK, MODE: 'faster' } });
    expect(writes).toEqual([expect.stringMatching(/server\/files\/env\/MODE$/)]);
    expect(s.servers.configs()[0]).toMatchObject({ env: { TOKEN: KEY, MODE: 'faster' } });

    // The editor sends the masks back with a new name: the values follow the server.
    s.servers.set(
      { name: 'notes', transport: 'stdio', command: 'node', env: { TOKEN: SECRET_MASK, MODE: 'slow' } },
      'files',
    );
    expect(s.servers.configs()).toEqual([
      expect.objectContaining({ name: 'notes', env: { TOKEN: KEY, MODE: 'slow' } }),
    ]);
    expect(entries.size).toBe(2);
    s.servers.remove('notes');
    expect(entries.size).toBe(0);
  });

  it('a key replaced by another process is read afresh, not from this one’s cache', () => {
    const { binding } = fakeKeychain();
    const first = services('two.db', [keychainBackend(() => binding)]);
    first.providers.set({ name: 'paid', kind: 'openai', apiKey: KEY });
    expect(first.providers.resolve('paid').apiKey).toBe(KEY);
    const second = services('two.db', [keychainBackend(() => binding)]);
    second.providers.set({ name: 'paid', kind: 'openai', apiKey: 'sk-replaced-000000000' });
    expect(first.providers.resolve('paid').apiKey).toBe('sk-replaced-000000000');
  });

  it('an import the keychain refuses midway leaves the servers, and the keychain, as they were', async () => {
    const { binding, entries, refuseWrite } = fakeKeychain();
    const s = services('import.db', [keychainBackend(() => binding)]);
    s.servers.set({ name: 'files', transport: 'stdio', command: 'node', env: { TOKEN: KEY } });
    const before = new Map(entries);
    const config = JSON.stringify({
      mcpServers: {
        files: { command: 'npx', env: { TOKEN: 'sk-imported-00000000' } },
        notes: { command: 'node', env: { A: 'one' } },
        search: { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer two' } },
      },
    });
    // Writes: files' TOKEN, notes' A, then the third (search's header) is refused.
    refuseWrite(3);
    await expect(s.servers.importConfig(config, 'cursor', { replace: true })).rejects.toThrow(/locked/);
    expect(s.servers.list().map((l) => l.config.name)).toEqual(['files']);
    expect(s.servers.configs()).toEqual([expect.objectContaining({ command: 'node', env: { TOKEN: KEY } })]);
    expect(entries).toEqual(before);

    // The keychain answering again, the same import writes all three.
    await s.servers.importConfig(config, 'cursor', { replace: true });
    expect(s.servers.configs().map((c) => c.name)).toEqual(['files', 'notes', 'search']);
    expect(s.servers.configs()[0]).toMatchObject({ command: 'npx', env: { TOKEN: 'sk-imported-00000000' } });
  });
});
