// Where API keys live. The OS keychain through keytar first (service = the app, account = the
// profile id); Electron safeStorage only when it is backed by a real keyring (the app injects
// it); otherwise in memory for this session with a visible warning. Never a plaintext file.
import { join } from 'node:path';
import { z } from 'zod';
import type { KeyStorage } from '../../shared/bridge/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';

export interface SecretStore {
  /** 'memory' means keys last only while the app runs (ProfileStore says what that means per profile). */
  readonly storage: Exclude<KeyStorage, 'environment' | 'none'>;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

export const APP_SECRET_SERVICE = 'Presenter Studio';

type Keytar = typeof import('keytar');

export class KeytarSecretStore implements SecretStore {
  readonly storage = 'keychain' as const;
  constructor(
    private readonly keytar: Keytar,
    private readonly service = APP_SECRET_SERVICE,
  ) {}
  get(account: string) {
    return this.keytar.getPassword(this.service, account);
  }
  set(account: string, secret: string) {
    return this.keytar.setPassword(this.service, account, secret);
  }
  delete(account: string) {
    return this.keytar.deletePassword(this.service, account);
  }
}

/** The part of Electron's safeStorage this store needs (injected from electron/app). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  getSelectedStorageBackend?(): string;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Keys encrypted by the OS keyring through safeStorage; the file holds ciphertext only. */
export class SafeStorageSecretStore implements SecretStore {
  readonly storage = 'safe-storage' as const;
  constructor(
    private readonly safe: SafeStorageLike,
    private readonly file: string,
  ) {}
  private async load(): Promise<Record<string, string>> {
    return readJson(this.file, z.record(z.string(), z.string()), {});
  }
  async get(account: string) {
    const blob = (await this.load())[account];
    return blob ? this.safe.decryptString(Buffer.from(blob, 'base64')) : null;
  }
  async set(account: string, secret: string) {
    const all = await this.load();
    all[account] = this.safe.encryptString(secret).toString('base64');
    await writeJsonAtomic(this.file, all);
  }
  async delete(account: string) {
    const all = await this.load();
    if (!(account in all)) return false;
    delete all[account];
    await writeJsonAtomic(this.file, all);
    return true;
  }
}

export class MemorySecretStore implements SecretStore {
  readonly storage = 'memory' as const;
  private readonly secrets = new Map<string, string>();
  async get(account: string) {
    return this.secrets.get(account) ?? null;
  }
  async set(account: string, secret: string) {
    this.secrets.set(account, secret);
  }
  async delete(account: string) {
    return this.secrets.delete(account);
  }
}

/** True when safeStorage encrypts with a real keyring (Linux reports `basic_text` when it has none). */
export function safeStorageIsReal(safe: SafeStorageLike | undefined): safe is SafeStorageLike {
  if (!safe?.isEncryptionAvailable()) return false;
  const backend = safe.getSelectedStorageBackend?.();
  return backend !== 'basic_text' && backend !== 'unknown';
}

export interface SecretStoreOptions {
  service?: string;
  /** Folder for the safeStorage ciphertext file. */
  dataDir: string;
  safeStorage?: SafeStorageLike;
  /** For tests: skip keytar to exercise the fallbacks. */
  keytar?: Keytar | null;
}

/** Picks the safest store that works here, probing keytar with a real call to the Secret Service. */
export async function createSecretStore(opts: SecretStoreOptions): Promise<SecretStore> {
  const service = opts.service ?? APP_SECRET_SERVICE;
  let keytar: Keytar | null | undefined = opts.keytar;
  if (keytar === undefined) {
    try {
      const mod = (await import('keytar')) as Keytar & { default?: Keytar };
      keytar = mod.default ?? mod;
    } catch {
      keytar = null;
    }
  }
  if (keytar) {
    try {
      // Fails with "org.freedesktop.secrets was not provided" where no Secret Service runs.
      await keytar.findCredentials(service);
      return new KeytarSecretStore(keytar, service);
    } catch {
      // fall through
    }
  }
  if (safeStorageIsReal(opts.safeStorage)) return new SafeStorageSecretStore(opts.safeStorage, join(opts.dataDir, 'keys.enc.json'));
  return new MemorySecretStore();
}
