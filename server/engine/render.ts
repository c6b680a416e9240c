// One render: speech → frames (only what changes) → ffmpeg → video.mp4, captions.vtt,
// thumbnail.jpg in the task's work directory. Temporary files are removed on every path.
import { once } from 'node:events';
import { rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { z } from 'zod';
import { outputSize, OUTPUT_FPS } from '../../shared/contract/index.js';
import {
  blinkTimes, captionAt, captionWordReach, captionWords, captionStateAt, computeLayout, createAnimation, createHeadCache, drawBackground, drawFrame, measureWith,
  NEUTRAL_POSE, paginateCaptions, poseAt, spokenScript, templateEntry, type CaptionPage, type HeadCache, type PresenterAssets, type SceneLayout,
  type TimedWord, type Animation, type MeasureText, type Rect,
} from '../../shared/scene/index.js';
import { loadPresenterNode, registerFonts } from './frames/assets.js';
import { runFfmpeg, type FfmpegRun } from './encode/ffmpeg.js';
import { mkvFrameHeader, mkvHeader } from './encode/mkv.js';
import { Narration, type NarrationChunk } from './speech/narration.js';
import { FrameCompositor } from './frames/frame-compositor.js';
import { planRegions } from './frames/regions.js';
import { copyClip, framePlanes, yuvFrameSize } from './frames/sprites.js';
import type { Box } from './frames/yuv.js';
import { SPEECH_SAMPLE_RATE } from './speech/speech.js';
import type { SpeechEngines } from './speech/speech-engines.js';
import { EngineError, type RenderResult, type RenderTask } from './types.js';
import { toWebVtt } from './encode/vtt.js';

export const EncodeSettings = z.object({
  preset: z.string(),
  crf: z.number(),
  /** Extra x264 options (key=value:key=value), tuned for mostly-static talking heads. */
  x264Params: z.string().optional(),
  /** x264's threads (absent: x264's own choice, 1.5 per core). */
  threads: z.number().int().positive().optional(),
  /** Benchmark baseline: draw and pipe every full frame instead of only the changing regions. */
  fullFrames: z.boolean().optional(),
});
export type EncodeSettings = z.infer<typeof EncodeSettings>;

/**
 * x264 for talking heads (measured on 61.6 s of 720p, same crf): `superfast` with macroblock-tree
 * rate control put back (it spends the bits where the picture stays: background, body) and no
 * B-frames gives the same file size as `veryfast`, a higher SSIM (face and captions too) and
 * ~28 % less encoder CPU. Keyframes every 10 s (scenecut off: there are no cuts); no weighted
 * prediction (there are no fades: the output is identical without its analysis).
 */
export const DEFAULT_ENCODE: EncodeSettings = {
  preset: 'superfast', crf: 23, x264Params: 'keyint=300:min-keyint=30:scenecut=0:mbtree=1:rc-lookahead=10:bframes=0:weightp=0',
  threads: encoderThreads(availableParallelism()),
};

/**
 * x264 threads: at least 6. x264's own choice (1.5 per core) leaves 2 cores idle in part: its
 * frame threads wait on each other's reference rows and on the next input frame. Measured on
 * 2 cores, 61.6 s of 720p from a raw file: 3.27 s with 3 threads, 3.03–3.12 s with 4, 2.83–2.99 s
 * with 6, 3.0 s with 8; fed through a pipe as the engine feeds it: 3.7 s → 3.1–3.2 s with 6. The
 * video is the same to the byte (x264 is deterministic across thread counts here).
 */
export function encoderThreads(cores: number): number {
  return Math.max(6, Math.ceil(cores * 1.5));
}

/** ffmpeg's output options for the video encoder (the engine's and the benchmark floor's). */
export function x264Args(e: EncodeSettings): string[] {
  return [
    ...(e.threads ? ['-threads', String(e.threads)] : []),
    '-c:v', 'libx264', '-preset', e.preset, '-crf', String(e.crf), ...(e.x264Params ? ['-x264-params', e.x264Params] : []),
  ];
}

const canceled = () => new EngineError('canceled', 'The render was canceled.');

export function headCacheNode(): HeadCache {
  return createHeadCache((w, h) => {
    const canvas = createCanvas(w, h);
    return { canvas, ctx: canvas.getContext('2d') };
  });
}

/** Everything needed to draw any frame of a job. */
export interface Scene {
  layout: SceneLayout;
  assets: PresenterAssets;
  background: Canvas;
  pages: CaptionPage[];
  words: TimedWord[];
  cache: HeadCache;
  measure: MeasureText;
}

/** `size`: the frame's (the task's output size unless given; the rehearsal draws smaller frames). */
export async function prepareScene(
  templateId: string, task: Pick<RenderTask, 'params' | 'shortSide'>, words: TimedWord[], size = outputSize(task.params.aspectRatio, task.shortSide),
): Promise<Scene> {
  registerFonts();
  const layout = computeLayout(templateId, task.params, size);
  const assets = await loadPresenterNode(layout.style.presenterId, layout.presenter.height);
  const background = createCanvas(size.width, size.height);
  const bctx = background.getContext('2d');
  drawBackground(bctx, layout);
  const measure = measureWith(bctx, layout);
  const scene: Scene = { layout, assets, background, pages: [], words: [], cache: headCacheNode(), measure };
  addCaptionPages(scene, words);
  return scene;
}

/**
 * Adds the caption words and pages of newly spoken words (Chinese and Japanese split into their
 * words, `captionWords`). They start a sentence (narration chunks end at sentence ends, and a
 * sentence ends a page), so pages made chunk by chunk are the pages of the whole script.
 */
function addCaptionPages(scene: Scene, spoken: readonly TimedWord[]): void {
  const words = captionWords(spoken);
  const first = scene.words.length;
  scene.words.push(...words);
  for (const page of paginateCaptions(scene.layout, words, scene.measure)) {
    scene.pages.push({ ...page, lines: page.lines.map((l) => l.map((i) => i + first)) });
  }
}

/** The whole frame at time t on a canvas, over the scene's painted background. */
function drawSceneFrame(ctx: SKRSContext2D, scene: Scene, anim: Animation, t: number): void {
  const state = { pose: poseAt(anim, t), caption: captionAt(scene.pages, scene.words, t) };
  drawFrame(ctx, scene.assets, scene.layout, state, { background: scene.background, headCache: scene.cache });
}

/** Draws the full frame at time t (for thumbnails and stills). */
export function drawFullFrame(scene: Scene, anim: ReturnType<typeof createAnimation>, t: number): Canvas {
  const { width, height } = scene.layout.size;
  const c = createCanvas(width, height);
  drawSceneFrame(c.getContext('2d'), scene, anim, t);
  return c;
}

/**
 * Frees the scene's bitmaps (presenter layers, background, head cache) once the compositor has
 * cut its sprites: shrinking a canvas frees its pixels now, not whenever the GC gets to it.
 */
function releaseArt(scene: Scene): void {
  for (const part of Object.values(scene.assets.parts)) {
    if (part instanceof Canvas) {
      part.width = 1;
      part.height = 1;
    }
  }
  scene.background.width = 1;
  scene.background.height = 1;
  scene.cache = headCacheNode();
}

/** Seconds of narration kept ready ahead of the frame being drawn (ffmpeg wants audio a little ahead of video). */
const AUDIO_LEAD = 2;

/** How long speech or ffmpeg may go without progress before the render is stopped as stuck. */
export const STALL_MS = 60_000;

export async function renderVideo(
  task: RenderTask, speech: SpeechEngines, encode: EncodeSettings = DEFAULT_ENCODE, stallMs = STALL_MS,
): Promise<RenderResult> {
  const { workDir } = task;
  if (!templateEntry(task.templateId)) throw new EngineError('invalid_input', `Unknown template "${task.templateId}".`);
  const voice = speech.voice(task.voiceId);
  // Stops speech and ffmpeg on the task's cancel, or when one of them stalls.
  const stop = new AbortController();
  const signal = stop.signal;
  const onCancel = () => stop.abort();
  task.signal.addEventListener('abort', onCancel, { once: true });
  if (task.signal.aborted) stop.abort();
  /** `p`, unless it makes no progress for stallMs: then everything stops and the render fails with `error`. */
  const within = <T>(p: Promise<T>, error: () => EngineError): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const e = error();
        stop.abort();
        reject(e);
      }, stallMs);
      p.then(
        (v) => (clearTimeout(timer), resolve(v)),
        (e: unknown) => (clearTimeout(timer), reject(e)),
      );
    });
  const speechStalled = () => new EngineError('speech_failed', `Speech synthesis stopped responding (nothing for ${Math.round(stallMs / 1000)} s); the render was stopped.`);
  const encoderStalled = () => new EngineError('encode_failed', `The video encoder (ffmpeg) stopped responding (nothing for ${Math.round(stallMs / 1000)} s); the render was stopped.`);
  let progress = 0;
  const report = (p: number) => {
    if (p > progress) {
      progress = Math.min(1, p);
      task.onProgress(progress);
    }
  };

  const tmpVideo = join(workDir, '.video.part.mp4');
  let ff: FfmpegRun | null = null;
  try {
    await speech.prepare(voice, signal); // a neural voice's pack: downloaded and loaded first
    const t0 = performance.now();
    const narration = new Narration(speech, spokenScript(task.text), voice, signal);
    // While the first sentence is spoken: start ffmpeg (its process and x264's set-up), lay out
    // and cut the scene, so the first frame goes out as soon as the first words are timed.
    const timeline = narration.timeline;
    const size = outputSize(task.params.aspectRatio, task.shortSide);
    const W = size.width | 0; // whole numbers as V8 keeps them (see PixelRect)
    const H = size.height | 0;
    // Video frames on stdin (Matroska, a frame only when it changed; the fps filter repeats it
    // until the next), the narration's PCM on a second pipe as its chunks arrive.
    const vfr = !encode.fullFrames;
    // Two frames queued between ffmpeg's reading thread and x264 (8 by default: 1.4 MB each, ~10 MB
    // more at its peak for nothing: the engine composes a frame in well under x264's time for one).
    const video = vfr
      ? ['-thread_queue_size', '2', '-f', 'matroska', '-i', 'pipe:0']
      : ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${W}x${H}`, '-framerate', String(OUTPUT_FPS), '-i', 'pipe:0'];
    const args = [
      '-y', ...video,
      '-f', 's16le', '-ar', String(SPEECH_SAMPLE_RATE), '-ac', '1', '-i', 'pipe:3',
      '-map', '0:v', '-map', '1:a', ...(vfr ? ['-vf', `fps=${OUTPUT_FPS}`] : []),
      ...x264Args(encode),
      '-pix_fmt', 'yuv420p', ...(vfr ? [] : ['-r', String(OUTPUT_FPS)]),
      '-c:a', 'aac', '-b:a', '128k', '-ar', '44100',
      '-movflags', '+faststart', '-f', 'mp4', tmpVideo,
    ];
    ff = runFfmpeg(args, signal, 'encoding the video', 1);
    const failed = ff.done.then(() => null, (e: unknown) => e); // handled from the start: ffmpeg may fail while the scene is prepared
    const scene = await prepareScene(task.templateId, task, []);
    if (signal.aborted) throw canceled();
    const anim = createAnimation(timeline);
    const pool = new FramePool();
    const source = encode.fullFrames ? fullFrameSource(scene, anim) : composedSource(scene, anim, pool);
    const audio = ff.extra[0]!;
    // Audio goes out from the first frame on: levelling the first sentence before it would keep
    // x264 waiting, and ffmpeg reads its two inputs on threads of their own.
    const unsent: NarrationChunk[] = [];
    let audioFlows = false;
    const sendAudio = () => {
      for (const c of unsent.splice(0)) {
        if (c.sampleRate !== SPEECH_SAMPLE_RATE) throw new EngineError('speech_failed', `Speech came at ${c.sampleRate} Hz instead of ${SPEECH_SAMPLE_RATE} Hz.`);
        const samples = c.audio();
        audio.write(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
      }
      if (narration.done) audio.end();
    };
    const addChunk = (c: NarrationChunk) => {
      addCaptionPages(scene, c.words);
      anim.blinks = blinkTimes(timeline.durationSeconds + 1);
      unsent.push(c);
      if (audioFlows) sendAudio();
    };
    // The thumbnail shows the third word spoken. It is drawn once the first second of frames is
    // out (the first frame then goes out ~50 ms sooner warm, ~150 ms cold, while x264 would
    // idle), after which the frames need none of the presenter's art (tens of MB of Skia bitmaps).
    // Its outcome is kept as a value (awaited at the end; a cancel or a failure may come first).
    let thumbnail: Promise<{ jpeg: Buffer } | { error: unknown }> | null = null;
    const drawThumbnail = () => {
      const words = scene.words;
      if (thumbnail || (words.length < 3 && !narration.done)) return;
      const t = words.length ? Math.min(timeline.durationSeconds, words[Math.min(2, words.length - 1)]!.start + 0.05) : 0;
      thumbnail = drawFullFrame(scene, anim, t).encode('jpeg', 86).then((jpeg) => ({ jpeg }), (error: unknown) => ({ error }));
      source.artDone();
    };

    source.prime();
    addChunk((await within(narration.next(), speechStalled))!);
    const speechSeconds = (performance.now() - t0) / 1000;
    report(0.02);
    if (signal.aborted) throw canceled();

    const stdin = ff.proc.stdin!;
    let tDraw = 0;
    let tWait = 0;
    let sent = 0;
    let last: Buffer | null = null;
    /** Writes a frame (VFR: with its Matroska header, and only when it changed); false when ffmpeg wants a pause. */
    const send = (buf: Buffer, f: number): boolean => {
      if (vfr && buf === last) return true;
      last = buf;
      sent++;
      pool.hold(buf);
      if (!vfr) return stdin.write(buf, () => pool.release(buf));
      // Header and frame leave in one writev: a write of its own would wake ffmpeg for 20 bytes.
      stdin.cork();
      stdin.write(mkvFrameHeader((f * 1000) / OUTPUT_FPS, buf.length));
      const ok = stdin.write(buf, () => pool.release(buf));
      stdin.uncork();
      return ok;
    };
    if (vfr) stdin.write(mkvHeader(W, H));
    for (let f = 0; ; f++) {
      if (signal.aborted) break;
      const t = f / OUTPUT_FPS;
      // The next chunk of narration (normally spoken long ago) before the frames reach it.
      while (!narration.done && t + AUDIO_LEAD >= timeline.durationSeconds) {
        addChunk((await within(narration.next(), speechStalled))!);
      }
      const frames = Math.max(1, Math.ceil(timeline.durationSeconds * OUTPUT_FPS));
      if (f >= frames) {
        // The last frame once more one tick after the end: the fps filter emits a frame only
        // when it sees the next one's time, so this makes the video exactly `frames` long.
        if (vfr && last) {
          const end = last;
          last = null;
          send(end, frames);
        }
        break;
      }
      let t1 = performance.now();
      const buf = source.frame(t);
      tDraw += performance.now() - t1;
      const wantsPause = !send(buf, f);
      if (!audioFlows) {
        audioFlows = true;
        sendAudio();
      }
      if (wantsPause) {
        t1 = performance.now();
        // A failed write (EPIPE: ffmpeg has exited) is ffmpeg's failure: its exit says why.
        const drained = once(stdin, 'drain').then(() => null, () => failed);
        const r = await within(Promise.race([drained, failed]), encoderStalled);
        tWait += performance.now() - t1;
        if (r) break;
      }
      // Progress by frames of the narration known so far (the rest is at most a few seconds).
      if (f % 15 === 0) report(0.02 + 0.93 * (f / frames));
      if (f >= OUTPUT_FPS) drawThumbnail();
      // Node frees the canvas's pixel read-backs (N-API finalizers) only when its event loop
      // turns; without this a long render would hold every frame's read-back until the end.
      if (f % 8 === 7) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    drawThumbnail(); // a video shorter than a second
    stdin.end();
    await within(ff.done, encoderStalled);
    report(0.96);
    const duration = timeline.durationSeconds;
    const frames = Math.max(1, Math.ceil(duration * OUTPUT_FPS));

    await writeFile(join(workDir, 'captions.vtt'), toWebVtt(scene.pages, scene.words, duration));
    const thumb = await thumbnail!;
    if ('error' in thumb) throw thumb.error;
    await writeFile(join(workDir, 'thumbnail.jpg'), thumb.jpeg);
    await rename(tmpVideo, join(workDir, 'video.mp4'));
    report(1);
    return {
      durationSeconds: Math.round(duration * 1000) / 1000, width: W, height: H,
      stats: { frames, speechSeconds, drawSeconds: tDraw / 1000, waitSeconds: tWait / 1000, sentPixelsPerFrame: (W * H * sent) / frames },
    };
  } catch (err) {
    ff?.proc.kill('SIGKILL');
    // Killed just above: wait until it is gone; its exit is the kill, `err` is what happened.
    if (ff) await Promise.allSettled([ff.done]);
    await rm(tmpVideo, { force: true });
    if (task.signal.aborted) throw canceled();
    if (err instanceof EngineError) throw err;
    throw new EngineError('internal_error', `The render failed unexpectedly: ${(err as Error).message ?? String(err)}`);
  } finally {
    task.signal.removeEventListener('abort', onCancel);
  }
}

/**
 * Frame buffers reused once ffmpeg's stdin has flushed them: a minute of video would otherwise
 * allocate a couple of gigabytes of short-lived buffers and let the heap balloon. The pool also
 * knows what each buffer lacks to be the current frame (the boxes changed since it was), so a
 * new frame copies those few boxes instead of a whole frame.
 */
export class FramePool {
  private readonly inFlight = new Map<Buffer, number>();
  private readonly free: Buffer[] = [];
  /** Boxes changed since each known buffer last held the current frame; absent: never did. */
  private readonly behind = new Map<Buffer, Box[]>();

  take(size: number): { buf: Buffer; behind: Box[] | null } {
    const b = this.free.pop();
    if (!b || b.length !== size) return { buf: Buffer.alloc(size), behind: null };
    const boxes = this.behind.get(b) ?? null;
    this.behind.delete(b);
    return { buf: b, behind: boxes };
  }

  /** `previous` stopped being the current frame; the new one differs from it inside `changed`. */
  advanced(previous: Buffer, changed: Box[]): void {
    for (const [b, boxes] of this.behind) {
      // Past a handful of boxes a whole copy is as cheap, and the list stops growing.
      if (boxes.length + changed.length > 16) this.behind.delete(b);
      else boxes.push(...changed);
    }
    this.behind.set(previous, [...changed]);
  }

  hold(b: Buffer): void {
    this.inFlight.set(b, (this.inFlight.get(b) ?? 0) + 1);
  }

  release(b: Buffer): void {
    const n = (this.inFlight.get(b) ?? 1) - 1;
    if (n > 0) return void this.inFlight.set(b, n);
    this.inFlight.delete(b);
    if (this.free.length < 4) this.free.push(b);
    else this.behind.delete(b);
  }
}

/** Where a render's frames come from. */
export interface FrameSource {
  /** The frame at time t (times only grow). */
  frame(t: number): Buffer;
  /** Work that needs no narration yet (the first pose's sprites), done while the first sentence is spoken. */
  prime(): void;
  /** No one else needs the presenter's art any more (the thumbnail is drawn): the source may let it go. */
  artDone(): void;
}

/** Baseline for benchmarks: every whole frame drawn and piped (it keeps the art). */
function fullFrameSource(scene: Scene, anim: Animation): FrameSource {
  const { width, height } = scene.layout.size;
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d', { alpha: false });
  return {
    frame(t) {
      drawSceneFrame(ctx, scene, anim, t);
      return c.data();
    },
    prime() {},
    artDone() {},
  };
}

/**
 * The rectangles (pixels of the caption region `cr`, even edges, inside it, not overlapping)
 * of the words `indices` (-1: none) in a page's reach (captionWordReach).
 */
function wordRects(reach: readonly Rect[], indices: number[], cr: Rect): Box[] {
  const rects: Box[] = [];
  for (const i of indices) {
    const w = reach[i];
    if (!w) continue;
    // `| 0`: whole numbers as V8 keeps them (see PixelRect), not doubles that happen to be whole.
    let b: Box = {
      x0: Math.max(0, Math.floor((w.x - cr.x) / 2) * 2) | 0, y0: Math.max(0, Math.floor((w.y - cr.y) / 2) * 2) | 0,
      x1: Math.min(cr.width, Math.ceil((w.x + w.width - cr.x) / 2) * 2) | 0, y1: Math.min(cr.height, Math.ceil((w.y + w.height - cr.y) / 2) * 2) | 0,
    };
    if (b.x1 <= b.x0 || b.y1 <= b.y0) continue;
    // Overlapping rectangles become one, so no pixel is compared against a half-patched image.
    for (let k = rects.length - 1; k >= 0; k--) {
      const o = rects[k]!;
      if (o.x0 < b.x1 && b.x0 < o.x1 && o.y0 < b.y1 && b.y0 < o.y1) {
        b = { x0: Math.min(o.x0, b.x0), y0: Math.min(o.y0, b.y0), x1: Math.max(o.x1, b.x1), y1: Math.max(o.y1, b.y1) };
        rects.splice(k, 1);
      }
    }
    rects.push(b);
  }
  return rects;
}

/**
 * Reads back a rectangle of a canvas (premultiplied RGBA, its rows `stride` pixels apart) by
 * copying it into a small canvas kept for rectangles of about that size. A read-back returns a
 * fresh Buffer of the whole canvas, and a large one costs page faults every time (~0.6 ms for a
 * caption box); a word's rectangle is a few tens of kB.
 */
function regionReader(): (src: Canvas, r: Box) => { px: Uint8Array; stride: number } {
  const scratch = new Map<string, { canvas: Canvas; ctx: SKRSContext2D }>();
  return (src, r) => {
    const w = r.x1 - r.x0;
    const h = r.y1 - r.y0;
    const W = (Math.ceil(w / 64) * 64) | 0;
    const H = (Math.ceil(h / 16) * 16) | 0;
    let s = scratch.get(`${W}x${H}`);
    if (!s) {
      const canvas = createCanvas(W, H);
      const ctx = canvas.getContext('2d');
      ctx.globalCompositeOperation = 'copy'; // the source's pixels as they are, not blended
      s = { canvas, ctx };
      scratch.set(`${W}x${H}`, s);
    }
    s.ctx.drawImage(src, r.x0, r.y0, w, h, 0, 0, w, h);
    return { px: s.canvas.data(), stride: W };
  };
}

/**
 * Whole frames as yuv420p, composed in the engine (frame-compositor.ts). A frame is the previous
 * one with only what changed composed again: the head's region when the pose moves (idle motion
 * snapped to whole pixels), the caption box when the page or the spoken word changes (drawn by
 * Skia then, and only then). An unchanged frame is the previous Buffer written again.
 */
export function composedSource(scene: Scene, anim: Animation, pool: FramePool): FrameSource {
  const { layout } = scene;
  const W = layout.size.width | 0; // whole numbers as V8 keeps them (see PixelRect)
  const H = layout.size.height | 0;
  const plan = planRegions(layout);
  // Sprites are cut as poses first need them until artDone, which cuts the rest.
  const compositor = new FrameCompositor(layout, scene.assets, scene.background, plan.presenter);
  const cr = plan.caption;
  const cCanvas = cr ? createCanvas(cr.width, cr.height) : null;
  const cctx = cCanvas?.getContext('2d');
  const readBack = regionReader();
  let captionPage = NaN;
  let captionActive = NaN;
  let pageReach: Rect[] | null = null;
  let frame: Buffer | null = null;
  const frameAt = (t: number): Buffer => {
    const dirty: Box[] = [];
    const moved = compositor.setPose(poseAt(anim, t));
    if (moved) dirty.push(moved);
    if (cr && cctx && cCanvas) {
      const { page, active } = captionStateAt(scene.pages, scene.words, t);
      if (page !== captionPage || active !== captionActive) {
        const view = captionAt(scene.pages, scene.words, t);
        cctx.clearRect(0, 0, cr.width, cr.height);
        cctx.save();
        cctx.translate(-cr.x, -cr.y);
        drawFrame(cctx, null, layout, { pose: NEUTRAL_POSE, caption: view }, { layers: ['caption'] });
        cctx.restore();
        if (view && page === captionPage) {
          // The spoken word moved on within the page: only the old and the new word's pixels can
          // differ, so only their rectangles are read back (a whole read-back costs ~0.6 ms).
          pageReach ??= captionWordReach(cctx, layout, view);
          for (const r of wordRects(pageReach, [captionActive, active], cr)) {
            const { px, stride } = readBack(cCanvas, r);
            dirty.push(...compositor.patchCaption(px, stride, r, cr));
          }
        } else {
          dirty.push(...compositor.setCaption(cCanvas.data(), cr));
          pageReach = null;
        }
        captionPage = page;
        captionActive = active;
      }
    }
    if (!frame) {
      frame = pool.take(yuvFrameSize(W, H)).buf;
      pool.hold(frame); // the current frame is never handed out again while it is current
      compositor.compose(framePlanes(frame, W, H));
    } else if (dirty.length) {
      // A buffer neither queued on ffmpeg's stdin nor current, brought up to the current frame
      // (only the boxes it lacks, when known), then composed again where this frame changed.
      const { buf: next, behind } = pool.take(frame.length);
      pool.hold(next);
      const planes = framePlanes(next, W, H);
      if (behind) {
        const current = framePlanes(frame, W, H);
        for (const b of behind) copyClip(planes, current, b);
      } else next.set(frame);
      for (const clip of dirty) compositor.compose(planes, clip);
      pool.advanced(frame, dirty);
      pool.release(frame);
      frame = next;
    }
    return frame;
  };
  return {
    frame: frameAt,
    prime() {
      compositor.setPose(poseAt(anim, 0));
    },
    artDone() {
      compositor.cutAll();
      releaseArt(scene);
    },
  };
}
