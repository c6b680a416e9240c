// Extension `presenters`, the creator's own, over a real socket on SQLite and PostgreSQL: a
// public-domain portrait (tests/fixtures/astronaut.jpg) and its Face Mesh points become a photo
// presenter; bad points, a face too small, a missing or non-image asset answer 422 naming the
// field; another user sees 404; the portrait cannot be deleted while the presenter exists.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, Presenter, PresenterList, PRESENTER_LIMITS } from '../../shared/contract/index.js';
import { call, errorCode, testServer, type TestServer } from './helpers.js';
import { freshSchema, testDatabaseUrl } from './postgres-db.js';
import { pdf, picture } from './fixtures/media.js';

const FIXTURES = new URL('../../tests/fixtures/', import.meta.url);
const portrait = readFileSync(new URL('astronaut.jpg', FIXTURES));
const landmarks = (JSON.parse(readFileSync(new URL('astronaut.landmarks.json', FIXTURES), 'utf8')) as { landmarks: number[][] }).landmarks;

async function uploadAsset(url: string, key: string, name: string, type: string, bytes: Buffer): Promise<Asset> {
  const res = await fetch(`${url}/api/assets?name=${encodeURIComponent(name)}`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(201);
  return Asset.parse(await res.json());
}

const stores = [
  { store: 'SQLite', database: undefined as string | undefined },
  ...(testDatabaseUrl() ? [{ store: 'PostgreSQL', database: 'pg' }] : []),
];

describe.each(stores)('photo presenters on $store', ({ database }) => {
  let server: TestServer;
  let drop: (() => Promise<void>) | undefined;
  let alice: string;
  let bob: string;
  let photo: Asset;

  beforeAll(async () => {
    const pg = database ? await freshSchema() : null;
    drop = pg?.drop;
    server = await testServer(pg ? { database: pg.url } : {});
    alice = await server.userKey('alice');
    bob = await server.userKey('bob');
    photo = await uploadAsset(server.url, alice, 'astronaut.jpg', 'image/jpeg', portrait);
  });
  afterAll(async () => {
    await server?.stop();
    await drop?.();
  });

  const create = (key: string, json: unknown) => call(`${server.url}/api/presenters`, { key, json });

  it('makes a photo presenter from a portrait and its Face Mesh points, with a face thumbnail', async () => {
    const res = await create(alice, { name: 'Eileen', assetId: photo.id, landmarks });
    expect(res.status, res.text).toBe(201);
    const p = Presenter.parse(res.body);
    expect(p).toMatchObject({ name: 'Eileen', kind: 'photo', builtIn: false });
    expect(res.headers.get('location')).toBe(`/api/presenters/${p.id}`);
    // Its own parts, so a client draws it as the video does; the list carries them too.
    expect(p.portrait?.assetId).toBe(photo.id);
    expect(p.portrait?.landmarks).toEqual(landmarks.map(([x, y]) => [x, y]));
    const listed = await call(`${server.url}/api/presenters`, { key: alice });
    expect(PresenterList.parse(listed.body).presenters.find((x) => x.id === p.id)?.portrait).toEqual(p.portrait);
    const thumb = await fetch(`${server.url}${p.thumbnailUrl}`, { headers: { authorization: `Bearer ${alice}` } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await thumb.arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Another user sees none of it.
    expect((await fetch(`${server.url}${p.thumbnailUrl}`, { headers: { authorization: `Bearer ${bob}` } })).status).toBe(404);
    const del = await call(`${server.url}/api/presenters/${p.id}`, { key: bob, method: 'DELETE' });
    expect(del.status).toBe(404);
    expect(errorCode(del)).toBe('not_found');
  });

  it('answers 422 naming the field for bad points, a small face, and an asset that is missing or not an image', async () => {
    const details = async (json: unknown) => {
      const res = await create(alice, json);
      expect(res.status, res.text).toBe(422);
      expect(errorCode(res)).toBe('validation_failed');
      return res.body.error.details as { path: string; message: string }[];
    };
    expect(await details({ name: 'Three', assetId: photo.id, landmarks: landmarks.slice(0, 3) })).toEqual([
      { path: 'landmarks', message: expect.stringContaining('478') },
    ]);
    const outside = landmarks.map((p, i) => (i === 7 ? [1.4, p[1]] : p));
    expect(await details({ name: 'Out', assetId: photo.id, landmarks: outside })).toEqual([{ path: 'landmarks[7][0]', message: expect.stringContaining('within the image') }]);
    // JSON has no NaN: what a client's NaN becomes (null, or a string) is not a number.
    const nan = landmarks.map((p, i) => (i === 9 ? [p[0], null] : i === 10 ? ['NaN', p[1]] : p));
    expect((await details({ name: 'NaN', assetId: photo.id, landmarks: nan })).map((d) => d.path)).toEqual(['landmarks[9][1]', 'landmarks[10][0]']);
    // The same face shrunk to a quarter around its centre: too small to animate.
    const small = landmarks.map(([x, y]) => [0.45 + (x! - 0.45) / 4, 0.25 + (y! - 0.25) / 4]);
    const tooSmall = await details({ name: 'Small', assetId: photo.id, landmarks: small });
    expect(tooSmall).toEqual([{ path: 'landmarks', message: expect.stringContaining(`at least ${PRESENTER_LIMITS.minFacePixels} px`) }]);
    expect(await details({ name: 'Nobody', assetId: 'ast_nope', landmarks })).toEqual([{ path: 'assetId', message: expect.stringContaining('no such asset') }]);
    // Bob's own copy of the photo is not Alice's.
    const bobs = await uploadAsset(server.url, bob, 'mine.jpg', 'image/jpeg', portrait);
    expect((await details({ name: 'Theirs', assetId: bobs.id, landmarks }))[0]!.path).toBe('assetId');
    const doc = await uploadAsset(server.url, alice, 'notes.pdf', 'application/pdf', pdf(1));
    expect(await details({ name: 'Doc', assetId: doc.id, landmarks })).toEqual([{ path: 'assetId', message: expect.stringContaining('must be an image') }]);
    const otherSize = await uploadAsset(server.url, alice, 'mask.png', 'image/png', picture(64, 64, 'png'));
    expect(await details({ name: 'Masked', assetId: photo.id, landmarks, maskAssetId: otherSize.id })).toEqual([
      { path: 'maskAssetId', message: expect.stringContaining("portrait's size") },
    ]);
  });

  it("keeps the portrait while a presenter is made from it; the presenter's DELETE frees it", async () => {
    const p = Presenter.parse((await create(alice, { name: 'Keeper', assetId: photo.id, landmarks })).body);
    const refused = await call(`${server.url}/api/assets/${photo.id}`, { key: alice, method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(errorCode(refused)).toBe('asset_in_use');
    expect(refused.body.error.message).toContain(p.id);
    const gone = await call(`${server.url}/api/presenters/${p.id}`, { key: alice, method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect((await call(`${server.url}/api/presenters/${p.id}`, { key: alice, method: 'DELETE' })).status).toBe(404);
  });
});
