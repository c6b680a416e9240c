// A video of scenes end to end with real espeak-ng, Skia, pdf.js and ffmpeg: a template scene
// with its presenter, a picture without one (fading in), a clip (cut in, held past its end by
// minSeconds), a document's second page (fading in). Frames taken in the middle of each scene
// show that scene's own background, the clip moves, the captions hold every scene's words in
// order and never run into the next scene, and the lengths follow the narration. The test
// media are made here: solid-colour PNGs by Skia, a clip by ffmpeg's lavfi sources, a PDF by hand.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSITION_SECONDS, VIDEO_EDGES, type RenderParams } from '../../../shared/contract/index.js';
import { computeLayout, templateEntry, type Rect } from '../../../shared/scene/index.js';
import { createEngine, EngineError, type RenderEngine, type RenderScene, type RenderTask, type SceneMedia } from '../index.js';
import { paintTemplate } from '../frames/backgrounds/index.js';
import { joinPauseSeconds, Narration } from '../speech/narration.js';
import { SpeechSynth } from '../speech/speech.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { engineVoice } from '../speech/voices.js';
import { childFfmpegPids, decodeFrames, probe, type Frame } from './media.js';
import { parseVttWords } from './vtt-words.js';

const ffmpegBin = process.env.FFMPEG_PATH ?? 'ffmpeg';
const W = 1280;
const H = 720;
type Rgb = [number, number, number];
const ORANGE: Rgb = [224, 112, 32];
const CLIP_BLUE: Rgb = [32, 80, 208];
const PAGE_COLOURS: Rgb[] = [[200, 30, 30], [30, 160, 60]];
// The presenter stands on the right: the left of every frame, above the captions, is background.
const params: RenderParams = { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.78, y: 0.45 } };
/** Top left, clear of the presenter, the captions and the clip's moving square. */
const PROBE: Rect = { x: 40, y: 40, width: 240, height: 160 };

let root: string;
let engine: RenderEngine;

function solidPng(path: string, [r, g, b]: Rgb, width: number, height: number): void {
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d');
  ctx.fillStyle = `rgb(${r},${g},${b})`;
  ctx.fillRect(0, 0, width, height);
  writeFileSync(path, c.toBuffer('image/png'));
}

/** A blue clip with a white square moving left to right across its middle, 30 fps. */
function movingClip(path: string, seconds: number): void {
  const hex = CLIP_BLUE.map((v) => v.toString(16).padStart(2, '0')).join('');
  execFileSync(ffmpegBin, [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x${hex}:s=320x240:r=30:d=${seconds}`,
    '-f', 'lavfi', '-i', `color=c=white:s=40x40:r=30:d=${seconds}`,
    '-filter_complex', '[0][1]overlay=x=t*60:y=100', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', path,
  ]);
}

/** A PDF of one page per colour, each page filled with it (16:9 pages). */
function colourPdf(path: string, colours: Rgb[]): void {
  const objects: string[] = [];
  const n = colours.length;
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${colours.map((_, i) => `${3 + i} 0 R`).join(' ')}] /Count ${n} >>`);
  colours.forEach((_, i) => objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 320 180] /Contents ${3 + n + i} 0 R >>`));
  for (const c of colours) {
    const body = `${c.map((v) => (v / 255).toFixed(3)).join(' ')} rg 0 0 320 180 re f`;
    objects.push(`<< /Length ${body.length} >>\nstream\n${body}\nendstream`);
  }
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  writeFileSync(path, pdf, 'latin1');
}

function meanColour(f: Frame, r: Rect): Rgb {
  const sum = [0, 0, 0];
  for (let y = r.y; y < r.y + r.height; y++) {
    for (let x = r.x; x < r.x + r.width; x++) for (let k = 0; k < 3; k++) sum[k]! += f.rgb[(y * f.width + x) * 3 + k]!;
  }
  return sum.map((s) => s / (r.width * r.height)) as Rgb;
}

const near = (a: Rgb, b: Rgb, tolerance = 12) => a.every((v, k) => Math.abs(v - b[k]!) <= tolerance);

function media(kind: SceneMedia['kind'], path: string, extra: Partial<SceneMedia>): SceneMedia {
  return { kind, path, mediaType: '', width: null, height: null, durationSeconds: null, pages: null, ...extra };
}

function scene(text: string, over: Partial<RenderScene>): RenderScene {
  return { text, templateId: 'newsroom', voiceId: 'en-US-Ava', presenterId: templateEntry('newsroom')!.presenter.id, avatar: params.avatar, background: null, transition: 'cut', media: null, ...over };
}

let dirCount = 0;
function task(scenes: RenderScene[]): RenderTask {
  return {
    jobId: 'job_scenes', text: scenes.map((s) => s.text).join('\n\n'), templateId: 'newsroom', voiceId: 'en-US-Ava', params, scenes,
    shortSide: 720, workDir: mkdtempSync(join(root, `work-${dirCount++}-`)), signal: new AbortController().signal, onProgress: () => undefined,
  };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ps-scenes-test-'));
  engine = (await createEngine({ cacheDir: join(root, 'cache') }))!;
});
afterAll(async () => {
  await engine.close?.();
  rmSync(root, { recursive: true, force: true });
});

describe('a video of four scenes', () => {
  const texts = [
    'Good evening, and welcome to the first scene.',
    'Here is a picture, with nobody standing in front of it.',
    'Now a short clip plays.',
    'And this is the second page of the slides.',
  ];
  const CLIP_MIN_SECONDS = 5;
  let t: RenderTask;
  let video: string;
  /** Where each scene starts and ends, as the narration says it must. */
  let bounds: { start: number; end: number }[];

  beforeAll(async () => {
    const picture = join(root, 'orange.png');
    solidPng(picture, ORANGE, 640, 360);
    const clip = join(root, 'clip.mp4');
    movingClip(clip, 3);
    const pdf = join(root, 'slides.pdf');
    colourPdf(pdf, PAGE_COLOURS);
    const asset = (assetId: string, more: Partial<NonNullable<RenderScene['background']>> = {}) => ({ assetId, fit: 'cover' as const, ...more });
    t = task([
      scene(texts[0]!, {}),
      scene(texts[1]!, { avatar: null, transition: 'fade', background: asset('a1'), media: media('image', picture, { width: 640, height: 360 }) }),
      scene(texts[2]!, { transition: 'cut', minSeconds: CLIP_MIN_SECONDS, background: asset('a2'), media: media('video', clip, { width: 320, height: 240, durationSeconds: 3 }) }),
      scene(texts[3]!, { transition: 'fade', background: asset('a3', { page: 2 }), media: media('document', pdf, { width: 320, height: 180, pages: 2 }) }),
    ]);
    await engine.render(t);
    video = join(t.workDir, 'video.mp4');

    // Each scene's narration as the engine speaks it, then the voice's pause before the next scene;
    // the video's lead-in before the first, its tail after the last.
    const synth = new SpeechSynth();
    const voice = engineVoice('en-US-Ava')!;
    const lengths: number[] = [];
    for (const [i, text] of texts.entries()) {
      const n = new Narration(new SpeechEngines(synth), text, voice, new AbortController().signal);
      while (await n.next());
      const edges = (i === 0 ? VIDEO_EDGES.leadInSeconds : 0) + (i < texts.length - 1 ? joinPauseSeconds(voice.espeak) : VIDEO_EDGES.tailSeconds);
      const spoken = n.timeline.durationSeconds + edges;
      lengths.push(i === 2 ? Math.max(spoken, CLIP_MIN_SECONDS) : spoken);
    }
    await synth.close();
    let at = 0;
    bounds = lengths.map((l) => ({ start: at, end: (at += l) }));
  }, 120_000);

  const frameAt = (seconds: number) => decodeFrames(video, W, H, Math.floor(seconds * 30), 1)[0]!;
  const middle = (i: number) => (bounds[i]!.start + bounds[i]!.end) / 2;

  it('lasts the scenes\' narrations, the clip scene its minimum length', () => {
    const p = probe(video);
    expect(p.video).toMatchObject({ width: W, height: H, fps: 30 });
    expect(p.duration).toBeCloseTo(bounds[3]!.end, 1);
    expect(bounds[2]!.end - bounds[2]!.start).toBe(CLIP_MIN_SECONDS); // the narration alone is shorter
    expect(readdirSync(t.workDir).sort()).toEqual(['captions.vtt', 'thumbnail.jpg', 'video.mp4']);
  });

  it('shows the template\'s art behind the presenter in the first scene', () => {
    const layout = computeLayout('newsroom', params, { width: W, height: H });
    const art = paintTemplate(layout).getContext('2d').getImageData(0, 0, W, H).data;
    const artFrame: Frame = { width: W, height: H, rgb: Buffer.from(rgbOf(art)) };
    const f = frameAt(middle(0));
    expect(near(meanColour(f, PROBE), meanColour(artFrame, PROBE), 6)).toBe(true);
    // The presenter stands on the right: its head is not the template's art.
    const head = headRect(layout.presenterBounds);
    expect(near(meanColour(f, head), meanColour(artFrame, head), 20)).toBe(false);
  });

  it('shows the picture, with no presenter, in the second scene, after fading in', () => {
    const f = frameAt(middle(1));
    expect(meanColour(f, PROBE)).toSatisfy((c: Rgb) => near(c, ORANGE));
    // Where the presenter stood in the first scene is the picture too.
    const head = headRect(computeLayout('newsroom', params, { width: W, height: H }).presenterBounds);
    expect(meanColour(f, head)).toSatisfy((c: Rgb) => near(c, ORANGE));
    // Halfway through the fade: neither the first scene's art nor the picture alone.
    const mid = frameAt(bounds[1]!.start + TRANSITION_SECONDS / 2);
    const half = meanColour(mid, PROBE);
    const before = meanColour(frameAt(bounds[1]!.start - 0.1), PROBE);
    for (let k = 0; k < 3; k++) expect(half[k]!).toBeCloseTo((before[k]! + ORANGE[k]!) / 2, -1.5);
  });

  it('plays the clip in the third scene (cut in), moving, then holding its last frame', () => {
    const first = frameAt(bounds[2]!.start + 0.03);
    expect(meanColour(first, PROBE)).toSatisfy((c: Rgb) => near(c, CLIP_BLUE));
    // The white square crosses the frame's middle band: two moments differ there, and it is white somewhere.
    const band: Rect = { x: 0, y: 280, width: 900, height: 160 };
    const a = frameAt(bounds[2]!.start + 0.5);
    const b = frameAt(bounds[2]!.start + 1.5);
    const where = (f: Frame) => {
      let sum = 0;
      let n = 0;
      for (let y = band.y; y < band.y + band.height; y++) {
        for (let x = band.x; x < band.x + band.width; x++) {
          const i = (y * W + x) * 3;
          if (f.rgb[i]! > 220 && f.rgb[i + 1]! > 220 && f.rgb[i + 2]! > 220) {
            sum += x;
            n++;
          }
        }
      }
      return n ? sum / n : NaN;
    };
    expect(where(b) - where(a)).toBeGreaterThan(200); // 60 px/s in the clip, 4x on screen
    // Past the clip's 3 s its last frame stays.
    const late = [bounds[2]!.start + 3.5, bounds[2]!.start + 4.5].map((s) => where(frameAt(s)));
    expect(Math.abs(late[0]! - late[1]!)).toBeLessThan(2);
    expect(meanColour(frameAt(middle(2)), PROBE)).toSatisfy((c: Rgb) => near(c, CLIP_BLUE));
  });

  it('shows the document\'s second page in the fourth scene', () => {
    const c = meanColour(frameAt(middle(3)), PROBE);
    expect(near(c, PAGE_COLOURS[1]!)).toBe(true);
    expect(near(c, PAGE_COLOURS[0]!, 60)).toBe(false);
  });

  it('captions every scene\'s words in order, each cue inside its own scene', () => {
    const { errors, cues } = parseVttWords(readFileSync(join(t.workDir, 'captions.vtt'), 'utf8'));
    expect(errors).toEqual([]);
    const plain = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, '').split(/\s+/).filter(Boolean);
    expect(cues.flatMap((c) => c.words.map((w) => plain(w.text)).flat())).toEqual(texts.flatMap(plain));
    for (const cue of cues) {
      // (Cue times are whole milliseconds.)
      const s = bounds.find((b) => cue.start >= b.start - 0.002 && cue.start < b.end - 0.002)!;
      expect(s).toBeDefined();
      expect(cue.end).toBeLessThanOrEqual(s.end + 0.002);
    }
    // Every scene has captions of its own.
    for (const b of bounds) expect(cues.some((c) => c.start >= b.start - 0.002 && c.start < b.end - 0.002)).toBe(true);
  });
});

/** A patch of the presenter's face (its painted box's upper middle). */
const headRect = (p: Rect): Rect => ({ x: Math.round(p.x + p.width * 0.4), y: Math.round(p.y + p.height * 0.12), width: 40, height: 40 });

function rgbOf(rgba: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < rgba.length; i += 4) out.push(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
  return out;
}

describe('a portrait picture and a portrait clip covering a wide frame', () => {
  const MAGENTA: Rgb = [210, 40, 200];
  const GREY: Rgb = [128, 128, 128];

  it('keep their top (where a face or a heading is) and lose mostly their bottom', async () => {
    // Each: its top quarter magenta (the "face"), the rest grey.
    const picture = join(root, 'portrait.png');
    const c = createCanvas(360, 640);
    const ctx = c.getContext('2d');
    ctx.fillStyle = `rgb(${GREY.join(',')})`;
    ctx.fillRect(0, 0, 360, 640);
    ctx.fillStyle = `rgb(${MAGENTA.join(',')})`;
    ctx.fillRect(0, 0, 360, 160);
    writeFileSync(picture, c.toBuffer('image/png'));
    const clip = join(root, 'portrait.mp4');
    const hex = (v: Rgb) => `0x${v.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
    execFileSync(ffmpegBin, [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${hex(GREY)}:s=240x320:r=30:d=2`,
      '-vf', `drawbox=x=0:y=0:w=240:h=80:color=${hex(MAGENTA)}:t=fill`, '-c:v', 'libx264', '-pix_fmt', 'yuv444p', '-crf', '0', clip,
    ]);
    const t = task([
      scene('A tall picture behind the words.', { avatar: null, background: { assetId: 'p1', fit: 'cover' }, media: media('image', picture, { width: 360, height: 640 }) }),
      scene('And a tall clip behind these.', { avatar: null, background: { assetId: 'p2', fit: 'cover' }, media: media('video', clip, { width: 240, height: 320, durationSeconds: 2 }) }),
    ]);
    await engine.render(t);
    const video = join(t.workDir, 'video.mp4');
    const duration = probe(video).duration;
    // Below the top band and above the captions.
    const low: Rect = { x: 40, y: 400, width: 240, height: 60 };
    for (const seconds of [1, duration - 0.3]) {
      const f = decodeFrames(video, W, H, Math.floor(seconds * 30), 1)[0]!;
      expect(meanColour(f, PROBE)).toSatisfy((c: Rgb) => near(c, MAGENTA, 16));
      expect(meanColour(f, low)).toSatisfy((c: Rgb) => near(c, GREY, 16));
    }
  }, 120_000);
});

describe('a clip that cannot be decoded', () => {
  it('fails its job with a clear error naming the scene, leaving no video and no decoder behind', async () => {
    const broken = join(root, 'broken.mp4');
    writeFileSync(broken, Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypmp42'), Buffer.alloc(4096, 7)]));
    const t = task([
      scene('A first scene that is fine.', {}),
      scene('A second scene over a broken clip.', { background: { assetId: 'a9', fit: 'cover' }, media: media('video', broken, { width: 320, height: 240, durationSeconds: 3 }) }),
    ]);
    const err = await engine.render(t).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/^Scene 2: its background clip cannot be decoded/) });
    expect(existsSync(join(t.workDir, 'video.mp4'))).toBe(false);
    expect(readdirSync(t.workDir)).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(childFfmpegPids()).toEqual([]);
  });
});
