// Extension `output` through the HTTP API with the real engine, on a server configured to 1080p:
// the size of the video per resolution, captions burned / file only / none, the thumbnail chosen
// by `thumbnailAt` and made again from the stored video, and bad values answered 422 by name.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputSize, type Job, type RenderParamsInput } from '../../shared/contract/index.js';
import { createEngine } from '../engine/index.js';
import { decodeFrames, probe, type Frame } from '../engine/test/media.js';
import { computeLayout } from '../../shared/scene/index.js';
import { call, errorCode, testServer, waitFor, type TestServer } from './helpers.js';

let s: TestServer;
let key: string;
let files: string;
const TEXT = 'Hello there. Captions come as a file today.';

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ps-output-'));
  files = mkdtempSync(join(tmpdir(), 'ps-output-files-'));
  const engine = await createEngine({ cacheDir: join(dataDir, 'engine-cache') });
  s = await testServer({ dataDir, engine, concurrency: 1, resolution: '1080p' });
  key = await s.userKey('creator');
});
afterAll(async () => {
  await s?.stop();
  rmSync(s.dataDir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

async function render(params: RenderParamsInput, templateId = 'newsroom'): Promise<Job> {
  const created = await call(`${s.url}/api/render`, { key, json: { text: TEXT, templateId, voiceId: 'en-US-Ava', params } });
  expect(created.status).toBe(202);
  const job = await waitFor(async () => {
    const j = (await call(`${s.url}/api/jobs/${(created.body as Job).id}`, { key })).body as Job;
    return ['completed', 'failed', 'canceled'].includes(j.status) ? j : null;
  }, 120_000);
  expect(job.error).toBeNull();
  return job;
}

async function bytes(path: string): Promise<{ status: number; body: Buffer; type: string | null; etag: string | null }> {
  const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type'), etag: res.headers.get('etag') };
}

async function saved(path: string, name: string): Promise<string> {
  const r = await bytes(path);
  expect(r.status).toBe(200);
  const file = join(files, name);
  writeFileSync(file, r.body);
  return file;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Mean absolute difference (0–255) of two RGB frames inside a rectangle. */
function meanDiff(a: Frame, b: Frame, r = { x: 0, y: 0, width: a.width, height: a.height }): number {
  let sum = 0;
  let n = 0;
  for (let y = r.y; y < r.y + r.height; y++) {
    for (let x = r.x; x < r.x + r.width; x++) {
      const i = (y * a.width + x) * 3;
      for (let c = 0; c < 3; c++) sum += Math.abs(a.rgb[i + c]! - b.rgb[i + c]!);
      n += 3;
    }
  }
  return sum / n;
}

async function jpegFrame(jpeg: Buffer): Promise<Frame> {
  const img = await loadImage(jpeg);
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const rgba = ctx.getImageData(0, 0, img.width, img.height).data;
  const rgb = Buffer.alloc(img.width * img.height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) [rgb[j], rgb[j + 1], rgb[j + 2]] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
  return { width: img.width, height: img.height, rgb };
}

it('lists the extension in its health answer', async () => {
  expect((await call(`${s.url}/api/health`)).body.extensions).toContain('output');
});

describe('resolution', () => {
  it('a 16:9 job on a 1080p server is a 1920×1080 H.264 video, and its job says 1080p', async () => {
    const job = await render({ aspectRatio: '16:9' });
    expect(job.params).toMatchObject({ resolution: '1080p', captions: 'burned', captionPosition: 'auto' });
    const p = probe(await saved(job.output!.videoUrl, '1080-16x9.mp4'));
    expect(p.video).toMatchObject({ codec: 'h264', width: 1920, height: 1080, pixFmt: 'yuv420p', fps: 30 });
    expect(job.output).toMatchObject({ width: 1920, height: 1080 });
  });

  it('a 1080p 9:16 job is 1080×1920; a 720p one asked for on the same server is 720×1280', async () => {
    const tall = await render({ aspectRatio: '9:16', resolution: '1080p' }, 'podcast-studio');
    expect(probe(await saved(tall.output!.videoUrl, '1080-9x16.mp4')).video).toMatchObject({ codec: 'h264', width: 1080, height: 1920 });
    const small = await render({ aspectRatio: '9:16', resolution: '720p' }, 'podcast-studio');
    expect(probe(await saved(small.output!.videoUrl, '720-9x16.mp4')).video).toMatchObject({ width: 720, height: 1280 });
  });
});

describe('captions', () => {
  const params = { aspectRatio: '16:9', resolution: '720p' } as const;
  const size = outputSize('16:9', 720);
  // The caption box of the first page, on even pixels (the video is yuv420p).
  const l = computeLayout('newsroom', { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.72, y: 0.58 } }, size);
  const even = (v: number) => Math.floor(v / 2) * 2;
  let burned: Frame[];
  let fileOnly: Frame[];
  let fileJob: Job;

  beforeAll(async () => {
    const avatar = { scale: 0.6, x: 0.72, y: 0.58 };
    const a = await render({ ...params, avatar });
    fileJob = await render({ ...params, avatar, captions: 'file' });
    // Two moments with different words on screen: 0.6 s and 2.2 s.
    const aFile = await saved(a.output!.videoUrl, 'burned.mp4');
    const bFile = await saved(fileJob.output!.videoUrl, 'file.mp4');
    burned = [18, 66].map((f) => decodeFrames(aFile, size.width, size.height, f, 1)[0]!);
    fileOnly = [18, 66].map((f) => decodeFrames(bFile, size.width, size.height, f, 1)[0]!);
  });

  it('"file" draws nothing in the caption band, where the same job burned shows the words', () => {
    const band = { x: even(l.caption.x), y: even(l.caption.y), width: even(l.caption.width), height: even(l.caption.height) };
    expect(meanDiff(burned[0]!, fileOnly[0]!, band)).toBeGreaterThan(8);
    // Burned, the band changes with the words; file only, it stays as the background is.
    expect(meanDiff(burned[0]!, burned[1]!, band)).toBeGreaterThan(2);
    expect(meanDiff(fileOnly[0]!, fileOnly[1]!, band)).toBeLessThan(1);
    expect(fileJob.params.captions).toBe('file');
  });

  it('"file" still serves the word-timed WebVTT', async () => {
    const vtt = await bytes(fileJob.output!.captionsUrl);
    expect(vtt.status).toBe(200);
    expect(vtt.type).toMatch(/^text\/vtt/);
    const text = vtt.body.toString('utf8');
    expect(text.startsWith('WEBVTT')).toBe(true);
    expect(text).toContain('Hello');
  });

  it('"none" gives no caption file: captionsUrl is empty and captions.vtt answers 404', async () => {
    const job = await render({ ...params, captions: 'none' });
    expect(job.output!.captionsUrl).toBe('');
    const res = await call(`${s.url}/api/jobs/${job.id}/captions.vtt`, { key });
    expect(res.status).toBe(404);
    expect(errorCode(res)).toBe('not_found');
    expect(res.body.error.message).toMatch(/none/);
  });
});

describe('thumbnail', () => {
  const size = outputSize('16:9', 720);
  let job: Job;
  let video: string;

  beforeAll(async () => {
    job = await render({ aspectRatio: '16:9', resolution: '720p', thumbnailAt: 1.5 });
    video = await saved(job.output!.videoUrl, 'thumb.mp4');
  });

  it('params.thumbnailAt picks the frame at that time', async () => {
    const thumb = await jpegFrame((await bytes(job.output!.thumbnailUrl)).body);
    expect([thumb.width, thumb.height]).toEqual([size.width, size.height]);
    const at = decodeFrames(video, size.width, size.height, 45, 1)[0]!;
    const start = decodeFrames(video, size.width, size.height, 3, 1)[0]!;
    expect(meanDiff(thumb, at)).toBeLessThan(meanDiff(thumb, start));
    expect(meanDiff(thumb, at)).toBeLessThan(4);
  });

  it('is made again from the stored video at another time: the JPEG and its URL change, the MP4 does not', async () => {
    const before = await bytes(job.output!.thumbnailUrl);
    const mp4Before = sha((await bytes(job.output!.videoUrl)).body);
    const res = await call(`${s.url}/api/jobs/${job.id}/thumbnail`, { key, json: { at: 0.2 } });
    expect(res.status).toBe(200);
    const updated = res.body as Job;
    expect(updated.output!.thumbnailUrl).not.toBe(job.output!.thumbnailUrl);
    expect(updated.output!.thumbnailUrl).toMatch(new RegExp(`^/api/jobs/${job.id}/thumbnail\\.jpg\\?v=`));
    const after = await bytes(updated.output!.thumbnailUrl);
    expect(after.type).toBe('image/jpeg');
    expect(sha(after.body)).not.toBe(sha(before.body));
    expect(after.etag).not.toBe(before.etag);
    expect(sha((await bytes(job.output!.videoUrl)).body)).toBe(mp4Before);
    // The new still is the video's frame at 0.2 s.
    const thumb = await jpegFrame(after.body);
    expect(meanDiff(thumb, decodeFrames(video, size.width, size.height, 6, 1)[0]!)).toBeLessThan(4);
    // The job as listed says the same.
    expect(((await call(`${s.url}/api/jobs/${job.id}`, { key })).body as Job).output!.thumbnailUrl).toBe(updated.output!.thumbnailUrl);
  });

  it('refuses a time outside the video, a bad body, another user\'s job and an unfinished one', async () => {
    const past = await call(`${s.url}/api/jobs/${job.id}/thumbnail`, { key, json: { at: job.output!.durationSeconds + 5 } });
    expect(past.status).toBe(422);
    expect(past.body.error.details[0].path).toBe('at');
    const text = await call(`${s.url}/api/jobs/${job.id}/thumbnail`, { key, json: { at: 'one' } });
    expect(text.status).toBe(422);
    expect(text.body.error.details[0].path).toBe('at');
    const extra = await call(`${s.url}/api/jobs/${job.id}/thumbnail`, { key, json: { at: 1, when: 2 } });
    expect(extra.status).toBe(422);
    const other = await s.userKey('someone-else');
    expect((await call(`${s.url}/api/jobs/${job.id}/thumbnail`, { key: other, json: { at: 1 } })).status).toBe(404);
    const queued = await call(`${s.url}/api/render`, { key, json: { text: TEXT, templateId: 'newsroom', voiceId: 'en-US-Ava' } });
    const early = await call(`${s.url}/api/jobs/${(queued.body as Job).id}/thumbnail`, { key, json: { at: 0.5 } });
    expect(early.status).toBe(404); // it takes seconds to render
    expect(errorCode(early)).toBe('not_ready');
  });
});

describe('bad output values', () => {
  it.each([
    ['resolution', '4k'],
    ['captions', 'burn'],
    ['captionPosition', 'left'],
    ['thumbnailAt', -1],
    ['thumbnailAt', '2'],
  ])('params.%s = %j is 422 naming the field', async (field, value) => {
    const res = await call(`${s.url}/api/render`, { key, json: { text: TEXT, templateId: 'newsroom', voiceId: 'en-US-Ava', params: { [field]: value } } });
    expect(res.status).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([`params.${field}`]);
  });
});
