// End to end through the HTTP API with the real engine (espeak-ng, @napi-rs/canvas, ffmpeg):
// renders at 16:9 and 9:16 are downloaded and checked with ffprobe and decoded pixels against
// the geometry shared/scene computes; a render canceled mid-way leaves no ffmpeg and no file.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputSize, type Job, type RenderParams } from '../../shared/contract/index.js';
import { computeLayout, drawBackground, type Rect } from '../../shared/scene/index.js';
import { createCanvas } from '@napi-rs/canvas';
import { createEngine } from '../engine/index.js';
import { childFfmpegPids, decodeFrames, diffBounds, medianPitch, probe } from '../engine/test/media.js';
import { call, testServer, waitFor, type TestServer } from './helpers.js';
import { registerFonts } from '../engine/frames/assets.js';

let s: TestServer;
let key: string;
let files: string;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ps-e2e-'));
  files = mkdtempSync(join(tmpdir(), 'ps-e2e-files-'));
  const engine = await createEngine({ cacheDir: join(dataDir, 'engine-cache') });
  s = await testServer({ dataDir, engine, concurrency: 1 });
  key = await s.userKey('creator');
});
afterAll(async () => {
  await s.stop();
  rmSync(s.dataDir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

const settle = (id: string, timeoutMs = 60_000) =>
  waitFor(async () => {
    const j = (await call(`${s.url}/api/jobs/${id}`, { key })).body as Job;
    return ['completed', 'failed', 'canceled'].includes(j.status) ? j : null;
  }, timeoutMs);

async function download(path: string, name: string): Promise<{ file: string; type: string | null }> {
  const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  const file = join(files, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { file, type: res.headers.get('content-type') };
}

const cases: { aspect: RenderParams['aspectRatio']; templateId: string; avatar: RenderParams['avatar'] }[] = [
  // Placements that keep each template's captions off the presenter, so its edges can be measured.
  { aspect: '16:9', templateId: 'corporate-briefing', avatar: { scale: 0.55, x: 0.3, y: 0.4 } },
  { aspect: '9:16', templateId: 'product-launch', avatar: { scale: 0.4, x: 0.45, y: 0.35 } },
];

describe.each(cases)('a $aspect render through the API', ({ aspect, templateId, avatar }) => {
  let job: Job;
  let video: string;
  const { width, height } = outputSize(aspect, 720);

  beforeAll(async () => {
    const created = await call(`${s.url}/api/render`, {
      key, json: { text: 'Hello, and welcome. This video was made in seconds.', templateId, voiceId: 'en-GB-Ryan', params: { aspectRatio: aspect, avatar } },
    });
    expect(created.status).toBe(202);
    job = await settle((created.body as Job).id);
    expect(job.error).toBeNull();
    expect(job.status).toBe('completed');
    video = (await download(job.output!.videoUrl, `${aspect.replace(':', 'x')}.mp4`)).file;
  });

  it('is an H.264/AAC MP4 of the contract size at 30 fps, as long as the speech', () => {
    const p = probe(video);
    expect(p.video).toMatchObject({ codec: 'h264', width, height, fps: 30, pixFmt: 'yuv420p' });
    expect(p.audio?.codec).toBe('aac');
    expect(job.output).toMatchObject({ width, height });
    expect(Math.abs(p.duration - job.output!.durationSeconds)).toBeLessThan(0.1);
    expect(job.progress).toBe(1);
  });

  it('shows the presenter where shared/scene puts it, within 2 px', () => {
    registerFonts();
    const layout = computeLayout(templateId, { aspectRatio: aspect, avatar }, { width, height });
    const bg = createCanvas(width, height);
    const ctx = bg.getContext('2d');
    drawBackground(ctx, layout);
    const [frame] = decodeFrames(video, width, height, 0, 1);
    const c = layout.caption;
    const captions: Rect = { x: 0, y: c.y - layout.captionFontPx, width, height: height - c.y + layout.captionFontPx };
    const want = layout.presenterBounds;
    const ext = layout.torsoExtension!; // placed high: the torso is continued down to the frame's edge
    expect(ext.y + ext.height).toBe(height);
    // Search near the expected box (a misplaced presenter would hit the window's edge and fail),
    // so fine background details far away cannot be mistaken for it after compression.
    const m = 40;
    const near: Rect = { x: want.x - m, y: want.y - m, width: want.width + 2 * m, height: height - want.y + m };
    const found = diffBounds(frame!, ctx.getImageData(0, 0, width, height).data, 90, captions, near)!;
    for (const [a, b] of [
      [found.x, want.x], [found.y, want.y], [found.x + found.width, want.x + want.width],
      // The torso continues to the frame's bottom edge; from the caption zone down it is not compared.
      [found.y + found.height, Math.min(ext.y + ext.height, captions.y)],
    ] as const) expect(Math.abs(a - b)).toBeLessThanOrEqual(2);
  });

  it('serves word-timed WebVTT captions and a JPEG thumbnail', async () => {
    const vtt = await download(job.output!.captionsUrl, `${aspect.replace(':', 'x')}.vtt`);
    expect(vtt.type).toMatch(/^text\/vtt/);
    const thumb = await download(job.output!.thumbnailUrl, `${aspect.replace(':', 'x')}.jpg`);
    expect(thumb.type).toBe('image/jpeg');
  });
});

it('serves voice samples whose pitch tells a female and a male voice apart', async () => {
  const get = async (id: string) => {
    const res = await fetch(`${s.url}/api/voices/${id}/sample`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^audio\/wav/);
    return Buffer.from(await res.arrayBuffer());
  };
  const sonia = medianPitch(await get('en-GB-Sonia'));
  const ryan = medianPitch(await get('en-GB-Ryan'));
  expect(ryan).toBeGreaterThan(60);
  expect(sonia / ryan).toBeGreaterThan(1.25);
});

it('cancels a render mid-way: status canceled, ffmpeg gone, no partial file', async () => {
  const text = 'This script is long enough to cancel while it renders. It goes on, and on, for a while. '.repeat(3);
  const created = await call(`${s.url}/api/render`, { key, json: { text, templateId: 'newsroom', voiceId: 'en-US-Ava' } });
  const id = (created.body as Job).id;
  await waitFor(async () => {
    const j = (await call(`${s.url}/api/jobs/${id}`, { key })).body as Job;
    return j.status === 'rendering' && j.progress > 0.2 && childFfmpegPids().length > 0;
  }, 60_000);
  const canceled = await call(`${s.url}/api/jobs/${id}/cancel`, { key, method: 'POST' });
  expect(canceled.status).toBe(200);
  expect((canceled.body as Job).status).toBe('canceled');
  await waitFor(async () => childFfmpegPids().length === 0, 1000);
  const job = await settle(id);
  expect(job.status).toBe('canceled');
  expect(job.output).toBeNull();
  expect((await call(`${s.url}/api/jobs/${id}/video`, { key })).status).toBe(404);
  // Nothing left behind: no attempt directory, no media of this job.
  await waitFor(async () => !existsSync(join(s.dataDir, 'work')) || readdirSync(join(s.dataDir, 'work')).length === 0, 2000);
  const media = join(s.dataDir, 'media');
  const all = existsSync(media) ? readdirSync(media, { recursive: true }).map(String) : [];
  expect(all.filter((f) => f.includes(id))).toEqual([]);
});
