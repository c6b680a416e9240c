// The media library against the real render API over a socket. Runs once the API has the asset
// routes (they come with the server's `assets` work): until then GET /api/assets is not found
// here and each test is skipped, saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StudioEvent, UploadStatus } from '../../shared/bridge/index.js';
import type { AssetList } from '../../shared/contract/index.js';
import { dispatch } from '../services/dispatch.js';
import type { Studio } from '../services/studio.js';
import { createKey, remoteOnlyStudio, ROOT, startApi, tempDir, waitFor, type RunningApi } from './helpers.js';

let api: RunningApi;
let key: string;
let studio: Studio;
const events: StudioEvent[] = [];

async function call<T>(method: string, input?: unknown): Promise<T> {
  const r = await dispatch(studio.handlers, method, input);
  if (!r.ok) throw Object.assign(new Error(`${method}: ${r.error.message}`), { bridge: r.error });
  return r.value as T;
}
const ended = (id: string) =>
  waitFor(() => events.find((e): e is Extract<StudioEvent, { type: 'upload' }> => e.type === 'upload' && e.upload.uploadId === id && ['done', 'failed', 'canceled'].includes(e.upload.state))?.upload, `upload ${id}`, 30_000);

beforeAll(async () => {
  const dataDir = tempDir('ps-api-');
  key = createKey(dataDir, { user: 'creator' });
  api = await startApi(dataDir);
  studio = await remoteOnlyStudio(tempDir(), { timeoutMs: 10_000, retries: 0 });
  studio.events.subscribe((e) => events.push(e));
  const p = await call<{ id: string }>('profiles.save', { name: 'Real', baseUrl: api.url, keyHeader: 'bearer', key });
  await call('profiles.select', { id: p.id });
}, 60_000);
afterAll(async () => {
  await studio?.close();
  await api?.stop();
});

describe('the media library on the real render API', () => {
  it('a PNG uploads with its size and a thumbnail, streams back through the app, and deletes', async () => {
    const png = readFileSync(join(ROOT, 'resources/icons/64x64.png'));
    const path = join(tempDir(), 'icon.png');
    writeFileSync(path, png);
    const up = await call<UploadStatus>('assets.uploadPath', { path });
    const done = await ended(up.uploadId);
    expect(done).toMatchObject({ state: 'done', asset: { kind: 'image', mediaType: 'image/png', width: 64, height: 64, sizeBytes: png.length } });
    const rest = (u: string) => u.slice('studio-media://app/'.length);
    expect(Buffer.from(await (await studio.openMedia(rest(done.asset!.contentUrl), {})).arrayBuffer()).equals(png)).toBe(true);
    expect((await studio.openMedia(rest(done.asset!.thumbnailUrl), {})).headers.get('content-type')).toBe('image/jpeg');
    expect((await call<AssetList>('assets.list')).assets.map((a) => a.id)).toContain(done.asset!.id);
    await call('assets.delete', { id: done.asset!.id });
  });

  it('a text file named .png is refused with the API reason, and nothing is kept', async () => {
    const path = join(tempDir(), 'notes.png');
    writeFileSync(path, 'only words in here');
    const end = await ended((await call<UploadStatus>('assets.uploadPath', { path })).uploadId);
    expect(end).toMatchObject({ state: 'failed', error: { code: 'unsupported_media_type' } });
    expect(end.error!.message.length).toBeGreaterThan(10);
    expect((await call<AssetList>('assets.list')).assets.filter((a) => a.name === 'notes.png')).toEqual([]);
  });
});
