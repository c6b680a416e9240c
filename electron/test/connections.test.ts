// The connection resolver against the real render API (server/ CLI over a socket): one client
// per profile, kept until the profile or its key changes, then built again; capabilities learned
// from the API; a failed build is not kept. And the studio's silent failures are now logged: a
// cache that cannot be written leaves the answer as it was and says so in the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Connections } from '../services/connections.js';
import { dispatch } from '../services/dispatch.js';
import { ProfileStore } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createStudio } from '../services/studio.js';
import { ROOT, createKey, startApi, tempDir, testLogger, type RunningApi } from './helpers.js';

const apiData = tempDir('ps-api-');
let api: RunningApi;
let key: string;

beforeAll(async () => {
  key = createKey(apiData, { user: 'alice' });
  api = await startApi(apiData);
});
afterAll(() => api.stop());

function remoteProfiles() {
  return new ProfileStore({ dataDir: tempDir(), secrets: new MemorySecretStore(), env: null, editable: true, local: false });
}

describe('connections', () => {
  it('keeps one client per profile until its key changes, then uses the new key', async () => {
    const profiles = remoteProfiles();
    const p = await profiles.save({ name: 'Team', baseUrl: api.url, keyHeader: 'bearer', key: 'psk_wrong_key_123' });
    const connections = new Connections({ profiles, env: null, localStudio: null, userId: null, clientOptions: { retries: 0 } });
    const first = await connections.client(p.id);
    expect(await connections.client(p.id)).toBe(first);
    await expect(first.listJobs({ limit: 1 })).rejects.toMatchObject({ code: 'unauthorized' });

    await profiles.setKey(p.id, key);
    connections.forget(p.id);
    const second = await connections.client(p.id);
    expect(second).not.toBe(first);
    expect((await second.listJobs({ limit: 1 })).jobs).toEqual([]);
    connections.close();
  });

  it('learns what the API supports from its health answer, and the active profile once', async () => {
    const profiles = remoteProfiles();
    const p = await profiles.save({ name: 'Team', baseUrl: api.url, keyHeader: 'bearer', key });
    const connections = new Connections({ profiles, env: null, localStudio: null, userId: null });
    expect(await connections.activeId()).toBe(p.id);
    expect(connections.knownCapabilities(p.id)).toBeUndefined();
    expect(await connections.capabilitiesOf(p.id)).toMatchObject({ cancel: true, catalogs: true, title: true });
    await expect(connections.require(p.id, 'delete', 'deleting jobs')).resolves.toBeUndefined();
  });

  it('does not keep a failed build: the profile added afterwards is found', async () => {
    const profiles = new ProfileStore({ dataDir: tempDir(), secrets: new MemorySecretStore(), env: null, editable: true, local: true });
    const connections = new Connections({ profiles, env: null, localStudio: null, userId: null });
    await expect(connections.client('p_later')).rejects.toMatchObject({ code: 'not_found' });
    await expect(connections.client('p_later')).rejects.toMatchObject({ code: 'not_found' });
    const p = await profiles.save({ name: 'Team', baseUrl: api.url, keyHeader: 'bearer', key });
    expect((await (await connections.client(p.id)).health()).ours).toBe(true);
  });

  it('turns the local profile into an offline error where no local studio runs', async () => {
    const profiles = new ProfileStore({ dataDir: tempDir(), secrets: new MemorySecretStore(), env: null, editable: true, local: true });
    const connections = new Connections({ profiles, env: null, localStudio: null, userId: null });
    await expect(connections.client('local')).rejects.toMatchObject({ code: 'offline' });
  });
});

describe('studio failures that do not fail the call', () => {
  it('logs a cache that cannot be written and still answers with the catalogs and jobs', async () => {
    const dataDir = tempDir();
    // A file where the cache folder should be: every cache write fails.
    writeFileSync(join(dataDir, 'cache'), 'not a folder');
    const log = testLogger();
    const studio = createStudio({
      shell: 'electron', version: '0.1.0', dataDir, resourcesDir: join(ROOT, 'resources'),
      profiles: new ProfileStore({ dataDir, secrets: new MemorySecretStore(), env: null, editable: true, local: false }),
      env: null, localStudio: null, userId: null, mediaBase: 'studio-media://app', log,
    });
    const saved = await dispatch(studio.handlers, 'profiles.save', { name: 'Team', baseUrl: api.url, keyHeader: 'bearer', key });
    expect(saved.ok).toBe(true);

    const catalogs = await dispatch(studio.handlers, 'catalogs.get', undefined);
    expect(catalogs).toMatchObject({ ok: true, value: { fromCache: false } });
    expect((catalogs as { value: { templates: unknown[] } }).value.templates.length).toBeGreaterThan(0);
    const jobs = await dispatch(studio.handlers, 'jobs.list', {});
    expect(jobs).toMatchObject({ ok: true, value: { fromCache: false } });

    expect(log.lines).toEqual([
      expect.stringMatching(/^warn: catalogs of "p_\w+" not cached: .+/),
      expect.stringMatching(/^warn: job list of "p_\w+" not cached: .+/),
    ]);
    expect(log.lines.join('\n')).not.toContain(key);
    await studio.close();
  });
});
