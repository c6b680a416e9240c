// The real engine end to end at engine level: real espeak-ng, real @napi-rs/canvas drawing,
// real ffmpeg; the outputs are checked the way a viewer would notice (ffprobe, decoded pixels,
// measured pitch). Scripts are a sentence or two so the suite stays fast.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOUND_LIMITS, VIDEO_EDGES, type RenderParams } from '../../../shared/contract/index.js';
import { createAnimation, drawFrame, poseAt, type PresenterPose, type Rect, type SpeechTimeline } from '../../../shared/scene/index.js';
import { createEngine, EngineError, type RenderEngine, type RenderResult, type RenderTask } from '../index.js';
import { Narration } from '../speech/narration.js';
import { ffmpegPath } from '../encode/ffmpeg.js';
import { headCacheNode, prepareScene } from '../frames/scene-frames.js';
import { SpeechSynth } from '../speech/speech.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { engineVoice } from '../speech/voices.js';
import { parseVttWords } from './vtt-words.js';
import { childFfmpegPids, childPids, decodeFrames, diffBounds, loudness, medianPitch, probe, regionDiff } from './media.js';

const TEXT = 'Good evening, and welcome. Tonight we make a video in seconds.';
let root: string;
let engine: RenderEngine;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ps-engine-test-'));
  engine = (await createEngine({ cacheDir: join(root, 'cache') }))!;
});
afterAll(async () => {
  await engine.close?.();
  rmSync(root, { recursive: true, force: true });
});

let dirCount = 0;
function task(over: Partial<RenderTask> & { params: RenderParams }): RenderTask & { progress: number[] } {
  const progress: number[] = [];
  const workDir = mkdtempSync(join(root, `work-${dirCount++}-`));
  return {
    jobId: 'job_test', text: TEXT, templateId: 'newsroom', voiceId: 'en-US-Ava', shortSide: 720, workDir,
    signal: new AbortController().signal, onProgress: (p) => progress.push(p), progress, ...over,
  };
}

describe('a 16:9 newsroom render', () => {
  // Placed high enough that the lower third does not cover the presenter.
  const params: RenderParams = { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.4 } };
  let t: ReturnType<typeof task>;
  let result: RenderResult;
  let speechSeconds: number;
  const synth = new SpeechSynth();
  let timeline: SpeechTimeline;

  beforeAll(async () => {
    t = task({ params });
    result = await engine.render(t);
    // The narration as the engine speaks it: sentence chunks joined by a pause, after the video's
    // lead-in; the video ends with its tail.
    const narration = new Narration(new SpeechEngines(synth), TEXT, engineVoice('en-US-Ava')!, new AbortController().signal, VIDEO_EDGES.leadInSeconds);
    while (await narration.next());
    timeline = narration.timeline;
    speechSeconds = timeline.durationSeconds + VIDEO_EDGES.tailSeconds;
  });
  afterAll(() => synth.close());

  it('writes an H.264/AAC MP4 at 1280x720, 30 fps, faststart, as long as the speech with its lead-in and tail', () => {
    const p = probe(join(t.workDir, 'video.mp4'));
    expect(p.video).toMatchObject({ codec: 'h264', width: 1280, height: 720, fps: 30, pixFmt: 'yuv420p' });
    expect(p.audio?.codec).toBe('aac');
    expect(p.faststart).toBe(true);
    expect(Math.abs(p.duration - speechSeconds)).toBeLessThan(0.1);
    expect(result).toMatchObject({ durationSeconds: expect.closeTo(speechSeconds, 2), width: 1280, height: 720 });
    // Frames cross the pipe only when they change; ffmpeg repeats them, and the video still has
    // exactly one frame per 1/30 s of narration.
    expect(p.video.frames).toBe(Math.ceil(speechSeconds * 30));
    // Only the three published files remain: no temporaries.
    expect(readdirSync(t.workDir).sort()).toEqual(['captions.vtt', 'thumbnail.jpg', 'video.mp4']);
    expect(readFileSync(join(t.workDir, 'thumbnail.jpg')).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('reports progress that only grows and ends at 1', () => {
    expect(t.progress.length).toBeGreaterThan(3);
    for (let i = 1; i < t.progress.length; i++) expect(t.progress[i]!).toBeGreaterThan(t.progress[i - 1]!);
    expect(t.progress.at(-1)).toBe(1);
  });

  it('puts the presenter where shared/scene computes it, within 2 px', async () => {
    const scene = await prepareScene('newsroom', { params, shortSide: 720 }, []);
    const bg = scene.background!.getContext('2d').getImageData(0, 0, 1280, 720).data;
    const [frame] = decodeFrames(join(t.workDir, 'video.mp4'), 1280, 720, 0, 1);
    const c = scene.layout.caption;
    const captionZone: Rect = { x: 0, y: c.y - 4, width: 1280, height: 720 - c.y + 4 };
    const found = diffBounds(frame!, bg, 90, captionZone)!;
    const want = scene.layout.presenterBounds;
    expect(Math.abs(found.x - want.x)).toBeLessThanOrEqual(2);
    expect(Math.abs(found.y - want.y)).toBeLessThanOrEqual(2);
    expect(Math.abs(found.x + found.width - (want.x + want.width))).toBeLessThanOrEqual(2);
    // Placed high, the torso is continued to the frame's bottom edge; from the caption zone down
    // nothing is compared.
    const ext = scene.layout.torsoExtension!;
    expect(ext.y + ext.height).toBe(720);
    expect(Math.abs(found.y + found.height - Math.min(ext.y + ext.height, captionZone.y))).toBeLessThanOrEqual(2);
  });

  it('moves the mouth while speaking and rests it in pauses', async () => {
    const scene = await prepareScene('newsroom', { params, shortSide: 720 }, []);
    const L = scene.layout;
    const k = L.presenterScale;
    const even = (v: number) => Math.round(v / 2) * 2; // yuv420p crops land on even pixels
    const mouth: Rect = {
      x: even(L.presenter.x + 166 * k), y: even(L.presenter.y + 226 * k), width: even(68 * k), height: even(50 * k),
    };
    const frames = decodeFrames(join(t.workDir, 'video.mp4'), 1280, 720, 0, 100000, mouth);
    const anim = createAnimation(timeline);
    // References: the same frame drawn with the mouth at rest and with the mouth shape the
    // timeline asks for. While speaking the video must match the spoken shape, not the rest one.
    const ref = createCanvas(mouth.width, mouth.height);
    const rctx = ref.getContext('2d');
    const cache = headCacheNode();
    const draw = (pose: PresenterPose) => {
      rctx.save();
      rctx.translate(-mouth.x, -mouth.y);
      drawFrame(rctx, scene.rig, L, { pose, caption: null }, { headCache: cache });
      rctx.restore();
      return rctx.getImageData(0, 0, mouth.width, mouth.height).data;
    };
    const all: Rect = { x: 0, y: 0, width: mouth.width, height: mouth.height };
    const speaking: { rest: number; spoken: number }[] = [];
    const resting: number[] = [];
    // The engine moves the head in whole pixels.
    const snap = (v: number) => Math.round(v * k) / k;
    frames.forEach((f, i) => {
      const raw = poseAt(anim, i / 30);
      const pose = { ...raw, headDx: snap(raw.headDx), headDy: snap(raw.headDy) };
      const rest = regionDiff(f, draw({ ...pose, viseme: 'rest' }), all);
      const inWord = timeline.words.some((w) => i / 30 >= w.start - 0.05 && i / 30 <= w.end + 0.05);
      if (pose.viseme === 'ai' || pose.viseme === 'o' || pose.viseme === 'e') speaking.push({ rest, spoken: regionDiff(f, draw(pose), all) });
      else if (pose.viseme === 'rest' && !inWord) resting.push(rest);
    });
    expect(speaking.length).toBeGreaterThan(20);
    expect(resting.length).toBeGreaterThan(5); // before the first word, between sentences, at the end
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
    const speakingRest = median(speaking.map((s) => s.rest));
    // In pauses the mouth is the rest mouth (what remains is encoder noise) ...
    expect(median(resting)).toBeLessThan(speakingRest / 2.5);
    // ... and while speaking it is the shape chosen from the phonemes, far from the rest mouth.
    const matching = speaking.filter((s) => s.spoken < s.rest / 2).length;
    expect(matching / speaking.length).toBeGreaterThan(0.8);
  });

  it('writes word-timed WebVTT: the words the video shows, each at the time it is spoken', () => {
    const vtt = readFileSync(join(t.workDir, 'captions.vtt'), 'utf8');
    const parsed = parseVttWords(vtt);
    expect(parsed.errors).toEqual([]);
    const words = parsed.cues.flatMap((c) => c.words);
    expect(words.map((w) => w.text).join(' ')).toBe(TEXT);
    // One time per word: the narration's own word times (the first of a cue is the cue's start).
    expect(words).toHaveLength(timeline.words.length);
    words.forEach((w, i) => expect(Math.abs(w.start - timeline.words[i]!.start), w.text).toBeLessThanOrEqual(0.0015));
    for (const [i, c] of parsed.cues.entries()) {
      expect(c.end).toBeGreaterThan(c.start);
      expect(c.end).toBeLessThanOrEqual(speechSeconds + 0.001);
      if (i) expect(c.start).toBeGreaterThanOrEqual(parsed.cues[i - 1]!.end);
    }
    // And the word timings the captions follow.
    for (const [i, w] of timeline.words.entries()) {
      expect(w.start).toBeGreaterThanOrEqual(i ? timeline.words[i - 1]!.start : 0);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(speechSeconds);
    }
  });
});

it('speaks and captions a script pasted with Markdown marks as its plain words, not "asterisk" or "hash"', async () => {
  const plain = 'Welcome. Intro. Step one: open the app, then render.';
  const t = task({ templateId: 'social-short', text: 'Welcome.\n## Intro\n**Step one:** open the *app*, then _render_.', params: { aspectRatio: '9:16', avatar: { scale: 0.55, x: 0.5, y: 0.45 } } });
  const r = await engine.render(t);
  const cues = parseVttWords(readFileSync(join(t.workDir, 'captions.vtt'), 'utf8')).cues.map((c) => c.words.map((w) => w.text).join(' '));
  // The heading is spoken as a sentence of its own and is a caption page of its own (inside one
  // narration chunk: the first sentence is spoken alone).
  expect(cues.slice(0, 2)).toEqual(['Welcome.', 'Intro']);
  expect(cues.join(' ')).toBe('Welcome. Intro Step one: open the app, then render.');
  const synth = new SpeechSynth();
  try {
    const narration = new Narration(new SpeechEngines(synth), plain, engineVoice('en-US-Ava')!, new AbortController().signal);
    while (await narration.next());
    // As long as the plain words (read out, the marks took seconds), with the lead-in and tail.
    expect(Math.abs(r.durationSeconds - narration.timeline.durationSeconds - VIDEO_EDGES.leadInSeconds - VIDEO_EDGES.tailSeconds)).toBeLessThan(0.05);
  } finally {
    await synth.close();
  }
});

it('narrates every voice at the same loudness, with headroom: -14 LUFS, peaks under -1 dBTP', async () => {
  // espeak's voices came out at -18 to -23 LUFS and SVOX Pico's at -11 to -14 with peaks at full
  // scale: changing the voice changed the video's level by up to 11 dB.
  const text = 'Good evening. Here is the news, read at the level every video of yours will have.';
  for (const voiceId of ['en-US-Lisa', 'de-DE-Conrad', 'en-US-Ava']) {
    const t = task({ text, voiceId, templateId: 'social-short', params: { aspectRatio: '9:16', avatar: { scale: 0.55, x: 0.5, y: 0.45 } } });
    await engine.render(t);
    const level = loudness(join(t.workDir, 'video.mp4'));
    expect(Math.abs(level.lufs - SOUND_LIMITS.loudnessLufs), `${voiceId}: ${level.lufs} LUFS`).toBeLessThanOrEqual(1);
    expect(level.truePeak, voiceId).toBeLessThanOrEqual(-1);
  }
  // The voice picker's sample sounds as loud as the video will.
  const sample = join(root, 'sample.wav');
  writeFileSync(sample, await engine.voiceSample('en-US-Ava'));
  expect(Math.abs(loudness(sample).lufs - SOUND_LIMITS.loudnessLufs)).toBeLessThanOrEqual(1);
}, 120_000);

it('renders 9:16 at 720x1280', async () => {
  const t = task({ templateId: 'social-short', text: 'Short and punchy.', params: { aspectRatio: '9:16', avatar: { scale: 0.55, x: 0.5, y: 0.45 } } });
  const r = await engine.render(t);
  const p = probe(join(t.workDir, 'video.mp4'));
  expect(p.video).toMatchObject({ codec: 'h264', width: 720, height: 1280, fps: 30 });
  expect(Math.abs(p.duration - r.durationSeconds)).toBeLessThan(0.1);
});

it('gives two voices measurably different pitch, and caches samples', async () => {
  const ava = await engine.voiceSample('en-US-Ava');
  const andrew = await engine.voiceSample('102'); // numeric id form
  expect(ava.subarray(0, 4).toString()).toBe('RIFF');
  const fa = medianPitch(ava);
  const fb = medianPitch(andrew);
  expect(fb).toBeGreaterThan(60);
  expect(fa / fb).toBeGreaterThan(1.25); // a female and a male catalog voice: clearly apart
  expect(readdirSync(join(root, 'cache')).filter((f) => f.startsWith('voice-'))).toHaveLength(2);
  expect((await engine.voiceSample('en-US-Ava')).equals(ava)).toBe(true);
});

it('cancels mid-render within a second: ffmpeg gone, no partial file', async () => {
  const ctl = new AbortController();
  const text = 'This is a longer script. It keeps going for a while, so that there is time to cancel it. '.repeat(3);
  let abortedAt = 0;
  let runningAtAbort: number[] = [];
  const t = task({
    text, signal: ctl.signal, params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.58 } },
    onProgress: (p) => {
      if (p > 0.3 && !abortedAt) {
        runningAtAbort = childFfmpegPids();
        abortedAt = performance.now();
        ctl.abort();
      }
    },
  });
  const err = await engine.render(t).catch((e: unknown) => e);
  const took = performance.now() - abortedAt;
  expect(err).toBeInstanceOf(EngineError);
  expect((err as EngineError).code).toBe('canceled');
  expect(took).toBeLessThan(1000);
  expect(runningAtAbort).toHaveLength(1); // ffmpeg was encoding when the cancel came ...
  expect(childFfmpegPids()).toEqual([]); // ... and is gone now
  expect(readdirSync(t.workDir)).toEqual([]);
});

it('fails with a clear code and message for bad input and a missing encoder', async () => {
  const params: RenderParams = { aspectRatio: '1:1', avatar: { scale: 0.7, x: 0.5, y: 0.55 } };
  await expect(engine.render(task({ voiceId: 'xx-XX-Nobody', params }))).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('xx-XX-Nobody') });
  await expect(engine.render(task({ templateId: 'nope', params }))).rejects.toMatchObject({ code: 'invalid_input' });
  const saved = process.env.FFMPEG_PATH;
  process.env.FFMPEG_PATH = join(root, 'no-such-ffmpeg');
  try {
    const t = task({ text: 'Hi.', params });
    await expect(engine.render(t)).rejects.toMatchObject({ code: 'encode_failed', message: expect.stringMatching(/ffmpeg.*not installed.*FFMPEG_PATH/) });
    await expect(engine.render(task({ text: 'Hi.', params }))).rejects.toMatchObject({ message: expect.not.stringContaining(root) });
    expect(readdirSync(t.workDir)).toEqual([]);
  } finally {
    if (saved === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = saved;
  }
});

it('stops a render whose encoder stops taking frames, with a clear message and no leftovers', async () => {
  // An ffmpeg that hangs (a real one cannot be made to, on purpose): it never reads its input.
  const hung = join(root, 'hung-ffmpeg');
  writeFileSync(hung, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
  // The limit leaves a cold speech worker (~0.6 s idle, well over 1 s on a loaded machine) time
  // for its first sentence, so it is the encoder's silence that trips it.
  const stuck = (await createEngine({ cacheDir: join(root, 'cache'), warmSpeech: false, stallMs: 3000 }))!;
  const saved = process.env.FFMPEG_PATH;
  process.env.FFMPEG_PATH = hung;
  try {
    const t = task({ params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.58 } } });
    const started = performance.now();
    await expect(stuck.render(t)).rejects.toMatchObject({ code: 'encode_failed', message: expect.stringMatching(/stopped responding/) });
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(readdirSync(t.workDir)).toEqual([]);
    expect(childPids('sleep')).toEqual([]); // the hung process was killed
  } finally {
    if (saved === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = saved;
    await stuck.close?.();
  }
});

it('names the encoder\'s own error when it fails mid-render (a full disk), leaving nothing behind', async () => {
  // The real ffmpeg under a file-size limit: its output write fails after ~100 KB with "File too
  // large", as a full disk would fail it, while the engine is still sending frames.
  const limited = join(root, 'limited-ffmpeg');
  writeFileSync(limited, `#!/bin/sh\ntrap '' XFSZ\nulimit -f 100\nexec '${ffmpegPath()}' "$@"\n`, { mode: 0o755 });
  const saved = process.env.FFMPEG_PATH;
  process.env.FFMPEG_PATH = limited;
  try {
    const text = 'This script is long enough that the video outgrows the limit while frames are still being sent. '.repeat(3);
    const t = task({ text, params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.58 } } });
    // The cause in words; ffmpeg's own text (with the server's paths) stays in the log.
    const failure = engine.render(t);
    await expect(failure).rejects.toMatchObject({ code: 'encode_failed', message: expect.stringMatching(/no space left on the render disk/) });
    await expect(failure).rejects.toMatchObject({ message: expect.not.stringContaining(t.workDir) });
    expect(readdirSync(t.workDir)).toEqual([]);
    expect(childFfmpegPids()).toEqual([]);
  } finally {
    if (saved === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = saved;
  }
});

it('draws a template thumbnail as JPEG at the aspect ratio', async () => {
  const jpg = await engine.templateThumbnail('classroom', '4:3');
  expect(jpg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  await expect(engine.templateThumbnail('nope', '4:3')).rejects.toMatchObject({ code: 'invalid_input' });
});

it('names a full disk when the engine\'s own write fails, not "failed unexpectedly"', async () => {
  // Every write to /dev/full fails with ENOSPC, as the captions' write does on a full disk.
  const t = task({ text: 'Hi.', params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.58 } } });
  symlinkSync('/dev/full', join(t.workDir, 'captions.vtt'));
  const failure = engine.render(t);
  await expect(failure).rejects.toMatchObject({ code: 'encode_failed', message: 'The video could not be written: no space left on the render disk.' });
  await expect(failure).rejects.toMatchObject({ message: expect.not.stringContaining(t.workDir) });
  expect(childFfmpegPids()).toEqual([]);
});
