import type { SafeStorage } from 'electron';
import type { SecretBackend } from '../../core/model/secrets';

/**
 * Secrets encrypted with Electron's safeStorage, whose key the OS keeps
 * (Keychain, DPAPI, the Secret Service). On Linux without a secret service
 * Electron falls back to a fixed, public key ("basic_text"): that protects
 * nothing, so it counts as unavailable and the vault says plain text instead.
 */
export function safeStorageBackend(
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
    Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>,
  platform: NodeJS.Platform,
): SecretBackend {
  return {
    store: 'safe-storage',
    available: () =>
      safeStorage.isEncryptionAvailable() &&
      !(platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text'),
    seal: (_account, value) => ({ store: 'safe-storage', data: safeStorage.encryptString(value).toString('base64') }),
    open: (_account, sealed) => {
      if (sealed.store !== 'safe-storage') throw new Error('not a safeStorage secret');
      return safeStorage.decryptString(Buffer.from(sealed.data, 'base64'));
    },
    // The ciphertext lives in the database; removing its record removes it.
    remove: () => undefined,
  };
}
