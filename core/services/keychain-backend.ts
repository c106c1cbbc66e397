import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { SecretBackend } from '../model/secrets';

/** The part of @napi-rs/keyring's Entry the vault uses (a test passes a stand-in). */
export interface KeychainEntry {
  setPassword(password: string): void;
  getPassword(): string | null;
  deletePassword(): boolean;
}
export type KeychainBinding = { Entry: new (service: string, account: string) => KeychainEntry };

const SERVICE = 'dev.flowbench';

/**
 * The OS keychain (macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux desktops) through @napi-rs/keyring, a maintained N-API
 * binding, so the same build serves Node and Electron. Loaded on first use:
 * no command pays for it unless it touches a secret.
 */
export function keychainBackend(
  load: () => KeychainBinding = () => createRequire(import.meta.url)('@napi-rs/keyring') as KeychainBinding,
): SecretBackend {
  let binding: KeychainBinding | undefined;
  let isAvailable: boolean | undefined;
  const entry = (account: string) => {
    binding ??= load();
    return new binding.Entry(SERVICE, account);
  };
  return {
    store: 'keychain',
    available() {
      // Reading a missing entry answers null even where nothing can be stored
      // (a server without a Secret Service), so the probe writes one and takes it back.
      if (isAvailable === undefined) {
        try {
          const probe = entry('availability-probe');
          probe.setPassword('probe');
          isAvailable = probe.getPassword() === 'probe';
          probe.deletePassword();
        } catch {
          isAvailable = false;
        }
      }
      return isAvailable;
    },
    seal(account, value) {
      entry(account).setPassword(value);
      return { store: 'keychain', id: randomUUID() };
    },
    open(account) {
      const value = entry(account).getPassword();
      if (value === null) throw new Error('the keychain has no such entry (was it deleted there?)');
      return value;
    },
    remove(account) {
      entry(account).deletePassword();
    },
  };
}
