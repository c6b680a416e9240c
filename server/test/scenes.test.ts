// Extension `scenes` over a real socket: a render request of scenes is checked against the
// catalog and the caller's assets (each problem names its field), and the Job carries the
// scenes normalised; the worker hands the engine each background as a local file.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, Job, LIMITS } from '../../shared/contract/index.js';
import type { RenderTask } from '../engine/types.js';
import { ffmpegMedia, pdf, picture } from './fixtures/media.js';
import { createTestEngine } from './fixtures/test-engine.js';
import { call, errorCode, testServer, waitFor, type Res, type TestServer } from './helpers.js';

let server: TestServer;
let alice: string;
let bob: string;
let scratch: string;
const tasks: RenderTask[] = [];
/** Alice's assets by kind, and one of Bob's. */
const ids: Record<'image' | 'video' | 'audio' | 'document' | 'bobs', string> = { image: '', video: '', audio: '', document: '', bobs: '' };
const contents: Record<string, Buffer> = {};

async function put(key: string, name: string, type: string, bytes: Buffer): Promise<string> {
  const r = await fetch(`${server.url}/api/assets?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': type },
    body: new Uint8Array(bytes),
  });
  expect(r.status).toBe(201);
  const asset = Asset.parse(await r.json());
  contents[asset.id] = bytes;
  return asset.id;
}

const render = (body: object, key = alice, headers: Record<string, string> = {}) =>
  call(`${server.url}/api/render`, { key, json: { templateId: 'newsroom', voiceId: 'en-US-Ava', ...body }, headers });

/** The 422's details as { path: message }. */
function refused(r: Res): Record<string, string> {
  expect(r.status, r.text).toBe(422);
  expect(errorCode(r)).toBe('validation_failed');
  return Object.fromEntries((r.body.error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]));
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ps-scenes-media-'));
  const engine = createTestEngine();
  server = await testServer({
    engine: { ...engine, render: (task: RenderTask) => (tasks.push(task), engine.render(task)) },
    concurrency: 1,
  });
  alice = await server.userKey('alice');
  bob = await server.userKey('bob');
  const [mp4, mp3] = await Promise.all([ffmpegMedia(scratch, 'mp4', 3), ffmpegMedia(scratch, 'mp3')]);
  ids.image = await put(alice, 'slide.png', 'image/png', picture(320, 180, 'png'));
  ids.video = await put(alice, 'screen.mp4', 'video/mp4', mp4);
  ids.audio = await put(alice, 'tone.mp3', 'audio/mpeg', mp3);
  ids.document = await put(alice, 'deck.pdf', 'application/pdf', pdf(2));
  ids.bobs = await put(bob, 'bob.png', 'image/png', picture(100, 100, 'png'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('scene requests that are refused name the field', () => {
  it("a missing asset and another user's asset: scenes[i].background.assetId", async () => {
    const d = refused(await render({ scenes: [
      { text: 'One.' },
      { text: 'Two.', background: { assetId: 'ast_00000000000000000000000000' } },
      { text: 'Three.', background: { assetId: ids.bobs } },
      { text: 'Four.', background: { assetId: 'ast_\u0000' } },
    ] }));
    expect(Object.keys(d).sort()).toEqual(['scenes[1].background.assetId', 'scenes[2].background.assetId', 'scenes[3].background.assetId']);
  });

  it('the wrong kind: a sound as background, a page of a picture, a start offset of a document, a loop of a picture', async () => {
    const d = refused(await render({ scenes: [
      { text: 'One.', background: { assetId: ids.audio } },
      { text: 'Two.', background: { assetId: ids.image, page: 2 } },
      { text: 'Three.', background: { assetId: ids.document, trimStart: 1 } },
      { text: 'Four.', background: { assetId: ids.image, loop: true } },
    ] }));
    expect(d).toMatchObject({
      'scenes[0].background.assetId': expect.stringMatching(/sound/),
      'scenes[1].background.page': expect.stringMatching(/only a document has pages/),
      'scenes[2].background.trimStart': expect.stringMatching(/only a clip/),
      'scenes[3].background.loop': expect.stringMatching(/only a clip/),
    });
  });

  it('a page beyond the document, a start past the clip', async () => {
    const d = refused(await render({ scenes: [
      { text: 'One.', background: { assetId: ids.document, page: 3 } },
      { text: 'Two.', background: { assetId: ids.video, trimStart: 60 } },
    ] }));
    expect(d['scenes[0].background.page']).toMatch(/has 2 pages/);
    expect(d['scenes[1].background.trimStart']).toMatch(/less than the clip's length/);
  });

  it('51 scenes; text and scenes together; neither', async () => {
    const many = Array.from({ length: LIMITS.scenesMax + 1 }, (_, i) => ({ text: `Scene ${i}.` }));
    expect(refused(await render({ scenes: many }))).toHaveProperty('scenes');
    expect(refused(await render({ text: 'Hello.', scenes: [{ text: 'Hi.' }] }))).toHaveProperty('scenes');
    expect(refused(await render({}))).toHaveProperty('text');
  });

  it('unknown template, voice and presenter of a scene, a template without the video aspect ratio, an unknown field', async () => {
    const d = refused(await render({ params: { aspectRatio: '16:9' }, scenes: [
      { text: 'One.', templateId: 'nope', voiceId: 'xx-XX-Nobody' },
      { text: 'Two.', presenterId: 'ghost' },
      { text: 'Three.', templateId: 'social-short' },
      { text: 'Four.', backgroud: null },
    ] }));
    expect(Object.keys(d)).toEqual(expect.arrayContaining(['scenes[3].backgroud']));
    const d2 = refused(await render({ params: { aspectRatio: '16:9' }, presenterId: 'ghost', scenes: [
      { text: 'One.', templateId: 'nope', voiceId: 'xx-XX-Nobody' },
      { text: 'Two.', presenterId: 'ghost' },
      { text: 'Three.', templateId: 'social-short' },
    ] }));
    expect(Object.keys(d2).sort()).toEqual(
      ['presenterId', 'scenes[0].templateId', 'scenes[0].voiceId', 'scenes[1].presenterId', 'scenes[2].templateId'].sort(),
    );
  });

  it('a scene without text, a bad fit', async () => {
    const d = refused(await render({ scenes: [{ text: '   ' }, { text: 'Two.', background: { assetId: ids.image, fit: 'stretch' } }] }));
    expect(Object.keys(d).sort()).toEqual(['scenes[0].text', 'scenes[1].background.fit']);
  });
});

describe('a scene job', () => {
  it('carries its scenes normalised, its text joined, and warnings per scene voice', async () => {
    const r = await render({
      params: { avatar: { scale: 0.5 } },
      scenes: [
        { text: '  Welcome to the update.  ' },
        { text: 'Here is the slide.', background: { assetId: ids.document }, avatar: { x: 0.1 }, transition: 'fade' },
        { text: 'Watch this clip.', background: { assetId: ids.video, fit: 'contain', trimStart: 1, loop: true }, avatar: null, presenterId: 'leo' },
        { text: 'Und jetzt auf Deutsch sprechen wir über die Zahlen, die wir haben.', templateId: 'classroom', voiceId: '201', minSeconds: 4 },
        { text: 'Dies ist ein deutscher Satz, den eine englische Stimme vorliest und der Text ist lang genug.' },
      ],
    });
    expect(r.status, r.text).toBe(202);
    const job = Job.parse(r.body);
    const avatar = { scale: 0.5, x: 0.72, y: 0.58 };
    expect(job.params.avatar).toEqual(avatar);
    expect(job.scenes).toEqual([
      { text: 'Welcome to the update.', templateId: 'newsroom', voiceId: 'en-US-Ava', presenterId: 'nora', avatar, background: null, transition: 'cut' },
      {
        text: 'Here is the slide.', templateId: 'newsroom', voiceId: 'en-US-Ava', presenterId: 'nora', avatar: { ...avatar, x: 0.1 },
        background: { assetId: ids.document, fit: 'cover', page: 1 }, transition: 'fade',
      },
      {
        text: 'Watch this clip.', templateId: 'newsroom', voiceId: 'en-US-Ava', presenterId: 'leo', avatar: null,
        background: { assetId: ids.video, fit: 'contain', trimStart: 1, loop: true }, transition: 'cut',
      },
      {
        text: 'Und jetzt auf Deutsch sprechen wir über die Zahlen, die wir haben.', templateId: 'classroom', voiceId: 'de-DE-Katja', presenterId: 'leo',
        avatar, background: null, transition: 'cut', minSeconds: 4,
      },
      {
        text: 'Dies ist ein deutscher Satz, den eine englische Stimme vorliest und der Text ist lang genug.', templateId: 'newsroom', voiceId: 'en-US-Ava',
        presenterId: 'nora', avatar, background: null, transition: 'cut',
      },
    ]);
    expect(job.text).toBe(job.scenes!.map((s) => s.text).join('\n\n'));
    // The German scene with the German voice is fine; the German scene with the English voice is not.
    expect(job.warnings.map((w) => [w.code, w.message.slice(0, 9)])).toEqual([['language_mismatch', 'Scene 5: ']]);
    // Read back as stored.
    expect(Job.parse((await call(`${server.url}/api/jobs/${job.id}`, { key: alice })).body).scenes).toEqual(job.scenes);
  });

  it('the top-level presenter applies to scenes that name none', async () => {
    const r = await render({ presenterId: 'maya', scenes: [{ text: 'One.' }, { text: 'Two.', presenterId: 'leo' }] });
    expect(r.status, r.text).toBe(202);
    expect(Job.parse(r.body).scenes!.map((s) => s.presenterId)).toEqual(['maya', 'leo']);
  });

  it('Idempotency-Key replays the same scene job, and refuses another body', async () => {
    const body = { scenes: [{ text: 'Once.', background: { assetId: ids.image } }] };
    const first = await render(body, alice, { 'idempotency-key': 'scene-1' });
    const again = await render(body, alice, { 'idempotency-key': 'scene-1' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const other = await render({ scenes: [{ text: 'Twice.' }] }, alice, { 'idempotency-key': 'scene-1' });
    expect(errorCode(other)).toBe('idempotency_conflict');
  });

  it("the worker gives the engine each background as a readable local file; a text job gets no scenes", async () => {
    const r = await render({ scenes: [
      { text: 'Picture. [slow:10]', background: { assetId: ids.image } },
      { text: 'Page two.', background: { assetId: ids.document, page: 2 } },
      { text: 'Template.' },
    ] });
    const done = await waitFor(async () => {
      const j = Job.parse((await call(`${server.url}/api/jobs/${r.body.id}`, { key: alice })).body);
      return j.status === 'completed' || j.status === 'failed' ? j : null;
    });
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    const task = tasks.find((t) => t.jobId === done.id)!;
    expect(task.scenes!.map((s) => s.media?.kind ?? null)).toEqual(['image', 'document', null]);
    const [img, doc] = task.scenes!.map((s) => s.media);
    expect(img).toMatchObject({ mediaType: 'image/png', width: 320, height: 180, pages: null });
    expect(doc).toMatchObject({ mediaType: 'application/pdf', pages: 2 });
    expect((await readFile(img!.path)).equals(contents[ids.image]!)).toBe(true);
    expect(task.scenes![1]!.background).toMatchObject({ page: 2 });

    const plain = await render({ text: 'Just text.' });
    await waitFor(async () => (await call(`${server.url}/api/jobs/${plain.body.id}`, { key: alice })).body.status === 'completed');
    const plainTask = tasks.find((t) => t.jobId === plain.body.id)!;
    expect('scenes' in plainTask).toBe(false);
  });

  it('a background gone from storage by render time fails the job with invalid_input naming the scene', async () => {
    const id = await put(alice, 'vanishing.png', 'image/png', picture(64, 64, 'png'));
    const dir = join(server.dataDir, 'media', 'assets', id);
    expect(existsSync(dir)).toBe(true);
    rmSync(dir, { recursive: true });
    const r = await render({ scenes: [{ text: 'One.' }, { text: 'Two.', background: { assetId: id } }] });
    expect(r.status).toBe(202);
    const done = await waitFor(async () => {
      const j = Job.parse((await call(`${server.url}/api/jobs/${r.body.id}`, { key: alice })).body);
      return j.status === 'failed' || j.status === 'completed' ? j : null;
    });
    expect(done.error).toEqual({ code: 'invalid_input', message: expect.stringMatching(/^scene 2: .*missing from storage/) });
  });
});
