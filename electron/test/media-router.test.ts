// The media router against the real render API over a socket: app media URLs are streamed from
// the addresses the API gave (catalog thumbnails, job outputs) with the profile's key, and a
// URL that names nothing is a 404 that never reaches the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/contract/index.js';
import { Connections } from '../services/connections.js';
import { MediaRouter } from '../services/media-router.js';
import { ProfileStore } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createKey, startApi, tempDir, type RunningApi } from './helpers.js';

const apiData = tempDir('ps-api-');
let api: RunningApi;
let router: MediaRouter;
let connections: Connections;
let profileId: string;
let key: string;

beforeAll(async () => {
  key = createKey(apiData, { user: 'alice' });
  api = await startApi(apiData);
  const profiles = new ProfileStore({ dataDir: tempDir(), secrets: new MemorySecretStore(), env: null, editable: true, local: false });
  profileId = (await profiles.save({ name: 'Team', baseUrl: api.url, keyHeader: 'bearer', key })).id;
  connections = new Connections({ profiles, env: null, localStudio: null, userId: null, clientOptions: { retries: 0 } });
  router = new MediaRouter('studio-media://app', connections);
});
afterAll(async () => {
  connections.close();
  await api.stop();
});

describe('media router', () => {
  it('rewrites catalog addresses to app URLs and streams them with the key', async () => {
    const client = await connections.client(profileId);
    const raw = { templates: await client.templates(), voices: await client.voices(), presenters: [] };
    const shown = router.catalog(profileId, raw);
    const t = shown.templates[0]!;
    expect(t.thumbnailUrl).toBe(`studio-media://app/${profileId}/templates/${t.id}/thumbnail`);
    expect(JSON.stringify(shown)).not.toContain(api.url);

    const res = await router.open(t.thumbnailUrl.slice('studio-media://app/'.length), {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const whole = Buffer.from(await res.arrayBuffer());
    const direct = await fetch(`${api.url}${raw.templates[0]!.thumbnailUrl}`, { headers: { authorization: `Bearer ${key}` } });
    expect(whole.equals(Buffer.from(await direct.arrayBuffer()))).toBe(true);

  });

  it('rewrites presenter thumbnails to app URLs and streams them with the key', async () => {
    const client = await connections.client(profileId);
    const raw = { templates: [], voices: [], presenters: await client.presenters() };
    const shown = router.catalog(profileId, raw);
    const p = shown.presenters[0]!;
    expect(p.thumbnailUrl).toBe(`studio-media://app/${profileId}/presenters/${p.id}/thumbnail`);
    expect(JSON.stringify(shown.presenters)).not.toContain('/api/');
    const res = await router.open(p.thumbnailUrl.slice('studio-media://app/'.length), {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    // A photo presenter made after the catalog was read: its face is a JPEG at the contract's path.
    expect(router.upstream({ profileId, kind: 'presenter', id: 'pht_abc' })).toBe('/api/presenters/pht_abc/thumbnail.jpg');
    const made = router.presenter(profileId, { id: 'pht_new', name: 'New', kind: 'photo', builtIn: false, thumbnailUrl: '/api/presenters/pht_new/thumbnail.jpg' });
    expect(made.thumbnailUrl).toBe(`studio-media://app/${profileId}/presenters/pht_new/thumbnail`);
  });

  it('fetches a job file from where the API said it is', () => {
    const job = { id: 'j1', output: { videoUrl: 'https://cdn.example/v.mp4', captionsUrl: '', thumbnailUrl: '/api/jobs/j1/thumbnail.jpg' } } as unknown as Job;
    const shown = router.job(profileId, job);
    expect(shown.output!.videoUrl).toBe(`studio-media://app/${profileId}/jobs/j1/video`);
    expect(router.upstream({ profileId, kind: 'job', id: 'j1', file: 'video' })).toBe('https://cdn.example/v.mp4');
    // Not told: the API's default path.
    expect(router.upstream({ profileId, kind: 'job', id: 'j2', file: 'captions' })).toBe('/api/jobs/j2/captions.vtt');
  });

  it('answers a URL that names nothing, or a job the API does not have, with a 404', async () => {
    for (const rest of ['', `${profileId}/jobs/x`, `${profileId}/secrets/x/video`, `${profileId}/jobs/..%2F..%2Fetc/video`]) {
      expect((await router.open(rest, {})).status).toBe(404);
    }
    const missing = await router.open(`${profileId}/jobs/no-such-job/video`, {});
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
  });

  it('answers a profile that does not exist with an error body, not a throw', async () => {
    const res = await router.open('p_gone/templates/newsroom/thumbnail', {});
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });
});
