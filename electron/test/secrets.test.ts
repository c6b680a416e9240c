// Keys in the real Secret Service (gnome-keyring on D-Bus, as `npm test` provides), one account
// per profile, and the fallbacks when there is no keychain.
import { describe, expect, it } from 'vitest';
import keytar from 'keytar';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createSecretStore, type SafeStorageLike } from '../services/secrets.js';
import { ProfileStore } from '../services/profiles.js';
import { tempDir } from './helpers.js';

const service = `Presenter Studio test ${process.pid}`;
const hasSecretService = await keytar.findCredentials(service).then(
  () => true,
  () => false,
);

describe.skipIf(!hasSecretService)('keytar against the real Secret Service', () => {
  it('stores, reads and deletes a key per profile', async () => {
    const store = await createSecretStore({ dataDir: tempDir(), service });
    expect(store.storage).toBe('keychain');
    await store.set('p_one', 'key-one-secret');
    await store.set('p_two', 'key-two-secret');
    expect(await store.get('p_one')).toBe('key-one-secret');
    expect(await store.get('p_two')).toBe('key-two-secret');
    // What the keychain itself holds, read without our wrapper.
    expect(await keytar.getPassword(service, 'p_two')).toBe('key-two-secret');
    expect(await store.delete('p_one')).toBe(true);
    expect(await store.get('p_one')).toBeNull();
    expect(await store.get('p_two')).toBe('key-two-secret');
    expect(await store.delete('p_one')).toBe(false);
    await store.delete('p_two');
  });

  it('a remote profile keeps its key in the keychain, never in its profile file', async () => {
    const dataDir = tempDir();
    const secrets = await createSecretStore({ dataDir, service });
    const profiles = new ProfileStore({ dataDir, secrets, env: null, editable: true, local: true });
    const p = await profiles.save({ name: 'Team', baseUrl: 'https://render.example.com/', keyHeader: 'x-api-key', key: 'team-key-1234567890' });
    expect(await profiles.keyStatus(p.id)).toEqual({ profileId: p.id, set: true, storage: 'keychain', warning: null });
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).not.toContain('team-key-1234567890');
    expect(await keytar.getPassword(service, p.id)).toBe('team-key-1234567890');
    expect((await profiles.clearKey(p.id)).set).toBe(false);
    await profiles.setKey(p.id, 'team-key-2');
    await profiles.remove(p.id);
    expect(await keytar.getPassword(service, p.id)).toBeNull();
  });
});

describe('fallbacks without a keychain', () => {
  const fakeSafe = (backend: string): SafeStorageLike => ({
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => backend,
    // Electron is not available here; a reversible transform stands in for the OS keyring.
    encryptString: (s) => Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)),
    decryptString: (b) => Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
  });

  it('keeps keys in memory with a visible warning, and writes no file', async () => {
    const dataDir = tempDir();
    const store = await createSecretStore({ dataDir, keytar: null });
    expect(store.storage).toBe('memory');
    const profiles = new ProfileStore({ dataDir, secrets: store, env: null, editable: true, local: true });
    const p = await profiles.save({ name: 'Team', baseUrl: 'http://127.0.0.1:9', keyHeader: 'bearer', key: 'mem-key-abcdef' });
    const status = await profiles.keyStatus(p.id);
    expect(status).toMatchObject({ set: true, storage: 'memory' });
    expect(status.warning).toContain('“Team” is kept only while the app runs');
    expect(existsSync(join(dataDir, 'keys.enc.json'))).toBe(false);
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).not.toContain('mem-key-abcdef');
  });

  it('point 6: warns about a key kept in memory only where something must be entered again', async () => {
    const dataDir = tempDir();
    const secrets = await createSecretStore({ dataDir, keytar: null });
    const profiles = new ProfileStore({ dataDir, secrets, env: null, editable: true, local: true });
    // The local studio makes its own key at every start: nothing to enter, nothing to warn about.
    await secrets.set('local', 'studio-made-key');
    expect(await profiles.keyStatus('local')).toMatchObject({ set: true, warning: null });
    const p = await profiles.save({ name: 'Team', baseUrl: 'http://127.0.0.1:9', keyHeader: 'bearer' });
    expect((await profiles.keyStatus(p.id)).warning).toMatch(/a key pasted for “Team” is kept only while the app runs/);
  });

  it('does not trust safeStorage on basic_text (no real keyring)', async () => {
    const store = await createSecretStore({ dataDir: tempDir(), keytar: null, safeStorage: fakeSafe('basic_text') });
    expect(store.storage).toBe('memory');
  });

  it('uses safeStorage on a real keyring backend and stores ciphertext only', async () => {
    const dataDir = tempDir();
    const store = await createSecretStore({ dataDir, keytar: null, safeStorage: fakeSafe('gnome_libsecret') });
    expect(store.storage).toBe('safe-storage');
    await store.set('p_x', 'plain-key-value');
    expect(readFileSync(join(dataDir, 'keys.enc.json'), 'utf8')).not.toContain('plain-key-value');
    expect(await store.get('p_x')).toBe('plain-key-value');
  });

  it('the environment profile is shown without its URL and never written down', async () => {
    const dataDir = tempDir();
    const profiles = new ProfileStore({ dataDir, secrets: await createSecretStore({ dataDir, keytar: null }), env: { baseUrl: 'http://10.0.0.1:4510', key: 'env-key-xyz', keyHeader: 'bearer' }, editable: true, local: true });
    const st = await profiles.state();
    expect(st.activeId).toBe('env');
    expect(st.profiles[0]).toEqual({ id: 'env', name: 'Environment', kind: 'env', baseUrl: null, keyHeader: 'bearer' });
    expect(JSON.stringify(st)).not.toContain('env-key-xyz');
    expect(await profiles.keyStatus('env')).toMatchObject({ set: true, storage: 'environment' });
    await profiles.select('local');
    expect(readFileSync(join(dataDir, 'profiles.json'), 'utf8')).not.toMatch(/env-key-xyz|10\.0\.0\.1/);
  });
});
