// A render in a voice whose pack is not installed, with the real engine: refused at submit with
// 422 naming the field while the pack is missing or its download failed; accepted while it
// downloads; and no failed download shows the system's network error to a creator.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, VoicePackStatus } from '../../shared/contract/index.js';
import { RESOURCES_DIR } from '../engine/frames/assets.js';
import { createEngine } from '../engine/index.js';
import { servePiperPack } from '../engine/test/tiny-onnx.js';
import { VoiceFile } from '../engine/speech/voices.js';
import { call, errorCode, testServer, waitFor, type TestServer } from './helpers.js';

const RAW_NETWORK = /ENOTFOUND|EAI_AGAIN|getaddrinfo|ECONNRESET|other side closed|fetch failed|127\.0\.0\.1|\.invalid/;
let s: TestServer;
let key: string;
let pack: Awaited<ReturnType<typeof servePiperPack>>;
let hangup: Server;
const catalogDir = mkdtempSync(join(tmpdir(), 'ps-pack-submit-'));

beforeAll(async () => {
  pack = await servePiperPack();
  // Accepts a download, then drops the connection a moment later: a pack that stays `downloading` for a while, then fails.
  hangup = createServer((socket) => setTimeout(() => socket.destroy(), 1500));
  await new Promise<void>((r) => hangup.listen(0, '127.0.0.1', r));
  const hangupBase = `http://127.0.0.1:${(hangup.address() as AddressInfo).port}`;
  const moved = (v: ReturnType<typeof pack.voice>, base: string) => ({ ...v, piper: { ...v.piper!, files: v.piper!.files.map((f) => ({ ...f, url: `${base}/${f.name}` })) } });
  copyFileSync(join(RESOURCES_DIR, 'templates.json'), join(catalogDir, 'templates.json'));
  const shipped = VoiceFile.parse(JSON.parse(readFileSync(join(RESOURCES_DIR, 'voices.json'), 'utf8')));
  const voices = [
    ...shipped.voices,
    pack.voice('en-US-Missy', '9101', 'Missy'),
    moved(pack.voice('en-US-Nowhere', '9102', 'Nowhere'), 'http://voices.invalid'), // a name that never resolves
    moved(pack.voice('en-US-Flaky', '9103', 'Flaky'), hangupBase),
  ];
  writeFileSync(join(catalogDir, 'voices.json'), JSON.stringify({ voices }));
  const dataDir = mkdtempSync(join(tmpdir(), 'ps-pack-submit-data-'));
  const engine = await createEngine({ cacheDir: join(dataDir, 'engine-cache'), catalogDir, warmSpeech: false });
  s = await testServer({ dataDir, engine, catalogDir, concurrency: 1 });
  key = await s.userKey('newcomer');
});
afterAll(async () => {
  await s.stop();
  pack.close();
  hangup.close();
  rmSync(s.dataDir, { recursive: true, force: true });
  rmSync(catalogDir, { recursive: true, force: true });
});

const packOf = async (id: string) => (await call(`${s.url}/api/voices/${id}/pack`, { key })).body as VoicePackStatus;
const render = (json: object) => call(`${s.url}/api/render`, { key, json: { templateId: 'corporate-briefing', ...json } });

describe('a voice whose pack is not installed', () => {
  it('is refused at submit while missing, naming voiceId or the scene', async () => {
    expect((await packOf('en-US-Missy')).state).toBe('missing');
    const top = await render({ text: 'Good morning.', voiceId: 'en-US-Missy' });
    expect(top.status).toBe(422);
    expect(errorCode(top)).toBe('validation_failed');
    expect(top.body.error.details).toEqual([{ path: 'voiceId', message: expect.stringMatching(/Missy.*downloaded first/) }]);

    const scene = await render({ voiceId: 'en-US-Ava', scenes: [{ text: 'Hello.' }, { text: 'And welcome.', voiceId: '9101' }] });
    expect(scene.status).toBe(422);
    expect(scene.body.error.details.map((d: { path: string }) => d.path)).toEqual(['scenes[1].voiceId']);
    expect(pack.requests).toEqual([]); // nothing downloaded behind the creator's back
  });

  it('is refused after its download failed, in words and not the network error', async () => {
    await call(`${s.url}/api/voices/en-US-Nowhere/pack`, { key, method: 'POST' });
    const failed = await waitFor(async () => {
      const p = await packOf('en-US-Nowhere');
      return p.state === 'failed' ? p : null;
    });
    expect(failed.error).toMatch(/no network connection|could not be reached/);
    expect(failed.error).not.toMatch(RAW_NETWORK);
    const r = await render({ text: 'Good morning.', voiceId: 'en-US-Nowhere' });
    expect(r.status).toBe(422);
    expect(r.body.error.details[0].path).toBe('voiceId');
    expect(r.text).not.toMatch(RAW_NETWORK);
  });

  it('is accepted while downloading; a download that then fails leaves no network error in the job', { timeout: 60_000 }, async () => {
    expect((await call(`${s.url}/api/voices/en-US-Flaky/pack`, { key, method: 'POST' })).body.state).toBe('downloading');
    const created = await render({ text: 'Good morning.', voiceId: 'en-US-Flaky' });
    expect(created.status).toBe(202);
    const job = await waitFor(async () => {
      const j = (await call(`${s.url}/api/jobs/${created.body.id}`, { key })).body as Job;
      return j.status === 'failed' ? j : null;
    }, 45_000);
    expect(job.error!.message).toMatch(/could not be downloaded/);
    expect(job.error!.message).not.toMatch(RAW_NETWORK);
  });
});
