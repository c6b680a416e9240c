// One render: speech → frames (only what changes) → ffmpeg → video.mp4, captions.vtt,
// thumbnail.jpg in the task's work directory. Temporary files are removed on every path.
import { once } from 'node:events';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { outputSize, OUTPUT_FPS } from '../../shared/contract/index.js';
import {
  captionAt, computeLayout, pageAt, createAnimation, createHeadCache, drawBackground, drawCaption, drawPresenter, drawTorso, measureWith,
  paginateCaptions, poseAt, SCENE_STYLES, type CaptionPage, type HeadCache, type PresenterAssets, type SceneLayout,
  type TimedWord, type Animation,
} from '../../shared/scene/index.js';
import { loadPresenterNode, registerFonts } from './assets.js';
import { runFfmpeg } from './ffmpeg.js';
import { PresenterCompositor } from './presenter-sprites.js';
import { planRegions, type Region, type RegionPlan } from './regions.js';
import { blitYuva, rgbaToYuva, yuvaFrameSize, type Planes } from './yuv.js';
import type { SpeechSynth } from './speech.js';
import { EngineError, type RenderResult, type RenderTask } from './types.js';
import { toWebVtt } from './vtt.js';
import { espeakVoice } from './voices.js';
import { wavBytes } from './wav.js';

export interface EncodeSettings {
  preset: string;
  crf: number;
  /** Extra x264 options (key=value:key=value), tuned for mostly-static talking heads. */
  x264Params?: string;
  /** Benchmark baseline: draw and pipe every full frame instead of only the changing regions. */
  fullFrames?: boolean;
}

export const DEFAULT_ENCODE: EncodeSettings = { preset: 'veryfast', crf: 23, x264Params: 'keyint=300:min-keyint=30:scenecut=0' };

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
}

export async function prepareScene(templateId: string, task: Pick<RenderTask, 'params' | 'shortSide'>, words: TimedWord[]): Promise<Scene> {
  registerFonts();
  const size = outputSize(task.params.aspectRatio, task.shortSide);
  const layout = computeLayout(templateId, task.params, size);
  const assets = await loadPresenterNode(layout.style.presenterId, layout.presenter.height);
  const background = createCanvas(size.width, size.height);
  const bctx = background.getContext('2d');
  drawBackground(bctx, layout);
  const pages = paginateCaptions(layout, words, measureWith(bctx, layout));
  return { layout, assets, background, pages, words, cache: headCacheNode() };
}

/** Draws the full frame at time t (for thumbnails and stills). */
export function drawFullFrame(scene: Scene, anim: ReturnType<typeof createAnimation>, t: number): Canvas {
  const { width, height } = scene.layout.size;
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d');
  ctx.drawImage(scene.background, 0, 0);
  drawPresenter(ctx, scene.assets, scene.layout, poseAt(anim, t), scene.cache);
  drawCaption(ctx, scene.layout, captionAt(scene.pages, scene.words, t));
  return c;
}

export async function renderVideo(task: RenderTask, speech: SpeechSynth, encode: EncodeSettings = DEFAULT_ENCODE): Promise<RenderResult> {
  const { signal, workDir } = task;
  if (!SCENE_STYLES[task.templateId]) throw new EngineError('invalid_input', `Unknown template "${task.templateId}".`);
  const voice = espeakVoice(task.voiceId);
  if (!voice) throw new EngineError('invalid_input', `Unknown voice "${task.voiceId}".`);
  let progress = 0;
  const report = (p: number) => {
    if (p > progress) {
      progress = Math.min(1, p);
      task.onProgress(progress);
    }
  };

  const tmpVideo = join(workDir, '.video.part.mp4');
  const bgPath = join(workDir, '.background.png');
  const audioPath = join(workDir, '.speech.wav');
  try {
    const t0 = performance.now();
    const sp = await speech.synthesize(task.text, voice, signal);
    const speechSeconds = (performance.now() - t0) / 1000;
    report(0.05);
    if (signal.aborted) throw canceled();
    const duration = sp.timeline.durationSeconds;
    const scene = await prepareScene(task.templateId, task, sp.timeline.words);
    const anim = createAnimation(sp.timeline);
    const { layout } = scene;
    const { width: W, height: H } = layout.size;
    await writeFile(audioPath, wavBytes(sp.samples, sp.sampleRate));
    // What ffmpeg loops: the background with the torso, which never moves.
    const still = createCanvas(W, H);
    const sctx = still.getContext('2d');
    sctx.drawImage(scene.background, 0, 0);
    drawTorso(sctx, scene.assets, layout);
    await writeFile(bgPath, await still.encode('png'));

    const frames = Math.max(1, Math.ceil(duration * OUTPUT_FPS));
    const plan = planRegions(layout);
    const pool = new FramePool();
    const source = encode.fullFrames ? fullFrameSource(scene, anim) : regionSource(scene, anim, plan, pool);
    const filter = encode.fullFrames ? '[1:v]format=yuv420p[v]' : regionFilter(plan);
    const [rawW, rawH] = encode.fullFrames ? [W, H] : [plan.atlasWidth, plan.atlasHeight];
    const args = [
      '-y', '-framerate', String(OUTPUT_FPS), '-i', bgPath,
      '-f', 'rawvideo', '-pix_fmt', encode.fullFrames ? 'rgba' : 'yuva420p', '-s', `${rawW}x${rawH}`, '-framerate', String(OUTPUT_FPS), '-i', 'pipe:0',
      '-i', audioPath,
      '-filter_complex', filter,
      '-map', '[v]', '-map', '2:a',
      '-c:v', 'libx264', '-preset', encode.preset, '-crf', String(encode.crf), ...(encode.x264Params ? ['-x264-params', encode.x264Params] : []),
      '-pix_fmt', 'yuv420p', '-r', String(OUTPUT_FPS),
      '-c:a', 'aac', '-b:a', '128k', '-ar', '44100',
      '-movflags', '+faststart', '-f', 'mp4', tmpVideo,
    ];
    const ff = runFfmpeg(args, signal, 'encoding the video');
    const failed = ff.done.then(() => null, (e: unknown) => e);

    const stdin = ff.proc.stdin!;
    let tDraw = 0;
    let tWait = 0;
    for (let f = 0; f < frames; f++) {
      if (signal.aborted) break;
      let t0 = performance.now();
      const buf = source(f / OUTPUT_FPS);
      tDraw += performance.now() - t0;
      pool.hold(buf);
      if (!stdin.write(buf, () => pool.release(buf))) {
        t0 = performance.now();
        const r = await Promise.race([once(stdin, 'drain').then(() => null), failed]);
        tWait += performance.now() - t0;
        if (r) break;
      }
      if (f % 15 === 0) report(0.05 + 0.9 * (f / frames));
      // Node frees the canvas's pixel read-backs (N-API finalizers) only when its event loop
      // turns; without this a long render would hold every frame's read-back until the end.
      if (f % 8 === 7) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    stdin.end();
    await ff.done;
    report(0.96);

    await writeFile(join(workDir, 'captions.vtt'), toWebVtt(scene.pages, scene.words, duration));
    const thumbT = scene.words.length ? Math.min(duration, scene.words[Math.min(2, scene.words.length - 1)]!.start + 0.05) : 0;
    await writeFile(join(workDir, 'thumbnail.jpg'), await drawFullFrame(scene, anim, thumbT).encode('jpeg', 86));
    await rename(tmpVideo, join(workDir, 'video.mp4'));
    report(1);
    return {
      durationSeconds: Math.round(duration * 1000) / 1000, width: W, height: H,
      stats: { frames, speechSeconds, drawSeconds: tDraw / 1000, waitSeconds: tWait / 1000, sentPixelsPerFrame: rawW * rawH },
    };
  } catch (err) {
    await rm(tmpVideo, { force: true });
    if (signal.aborted) throw canceled();
    if (err instanceof EngineError) throw err;
    throw new EngineError('internal_error', `The render failed unexpectedly: ${(err as Error).message ?? String(err)}`);
  } finally {
    await rm(bgPath, { force: true });
    await rm(audioPath, { force: true });
  }
}

/**
 * Frame buffers reused once ffmpeg's stdin has flushed them: a minute of video would otherwise
 * allocate a couple of gigabytes of short-lived buffers and let the heap balloon.
 */
class FramePool {
  private readonly inFlight = new Map<Buffer, number>();
  private readonly free: Buffer[] = [];

  take(size: number): Buffer {
    const b = this.free.pop();
    return b && b.length === size ? b : Buffer.alloc(size);
  }

  hold(b: Buffer): void {
    this.inFlight.set(b, (this.inFlight.get(b) ?? 0) + 1);
  }

  release(b: Buffer): void {
    const n = (this.inFlight.get(b) ?? 1) - 1;
    if (n > 0) return void this.inFlight.set(b, n);
    this.inFlight.delete(b);
    if (this.free.length < 4) this.free.push(b);
  }
}

/** Baseline for benchmarks: every whole frame drawn and piped. */
function fullFrameSource(scene: Scene, anim: Animation): (t: number) => Buffer {
  const { width, height } = scene.layout.size;
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d', { alpha: false });
  return (t) => {
    ctx.drawImage(scene.background, 0, 0);
    drawPresenter(ctx, scene.assets, scene.layout, poseAt(anim, t), scene.cache);
    drawCaption(ctx, scene.layout, captionAt(scene.pages, scene.words, t));
    return c.data();
  };
}

/**
 * The atlas frame at time t, as yuva420p (converted here, not by ffmpeg per frame). The head
 * region is composed from YUV sprites (presenter-sprites.ts) when the pose changes (idle motion
 * snapped to half pixels); the caption layer is drawn by Skia only when the caption page or the
 * spoken word changes. An unchanged frame is the previous Buffer written again.
 */
function regionSource(scene: Scene, anim: Animation, plan: RegionPlan, pool: FramePool): (t: number) => Buffer {
  const { presenter: pr, caption: cr, atlasWidth: AW, atlasHeight: AH } = plan;
  const compositor = pr ? new PresenterCompositor(scene.layout, scene.assets, scene.background, pr) : null;
  const head = compositor?.planes() ?? null;
  const cCanvas = cr ? createCanvas(cr.width, cr.height) : null;
  const cctx = cCanvas?.getContext('2d');
  let headKey = '';
  let captionKey = '';
  let captionPlanes: Planes | null = null;
  let frame: Buffer | null = null;
  return (t) => {
    let changed = !frame;
    if (compositor && head) {
      const pose = poseAt(anim, t);
      const { key } = compositor.placement(pose);
      if (key !== headKey) {
        compositor.compose(pose, head);
        headKey = key;
        changed = true;
      }
    }
    if (cr && cctx && cCanvas) {
      const view = captionAt(scene.pages, scene.words, t);
      const key = view ? `${pageAt(scene.pages, t)}:${view.activeIndex}` : 'none';
      if (key !== captionKey || !captionPlanes) {
        cctx.clearRect(0, 0, cr.width, cr.height);
        cctx.save();
        cctx.translate(-cr.x, -cr.y);
        drawCaption(cctx, scene.layout, view);
        cctx.restore();
        captionPlanes = rgbaToYuva(cCanvas.data(), cr.width, cr.height, captionPlanes ?? undefined);
        captionKey = key;
        changed = true;
      }
    }
    if (changed || !frame) {
      // A buffer no longer queued on ffmpeg's stdin (the previous frame may still be).
      frame = pool.take(yuvaFrameSize(AW, AH));
      if (pr && head) blitYuva(head, frame, AW, AH, pr.atlasX, pr.atlasY);
      if (cr && captionPlanes) blitYuva(captionPlanes, frame, AW, AH, cr.atlasX, cr.atlasY);
    }
    return frame;
  };
}

/**
 * ffmpeg graph: the background PNG looped in memory; the atlas split into the presenter
 * region (opaque: overlaid as a plain copy at even offsets) and the caption layer (blended).
 */
function regionFilter(plan: RegionPlan): string {
  const chains = [`[0:v]format=yuv420p,loop=loop=-1:size=1:start=0,setpts=N/${OUTPUT_FPS}/TB[bg]`];
  const parts: [Region, string][] = [];
  if (plan.presenter) parts.push([plan.presenter, 'yuv420p']);
  if (plan.caption) parts.push([plan.caption, 'yuva420p']);
  if (!parts.length) return `[0:v]format=yuv420p,loop=loop=-1:size=1:start=0,setpts=N/${OUTPUT_FPS}/TB[v]`;
  chains.push(parts.length > 1 ? `[1:v]split=${parts.length}${parts.map((_, i) => `[a${i}]`).join('')}` : '[1:v]null[a0]');
  let base = '[bg]';
  parts.forEach(([r, fmt], i) => {
    const convert = fmt === 'yuv420p' ? ',format=yuv420p' : ''; // the atlas is yuva420p already
    chains.push(`[a${i}]crop=${r.width}:${r.height}:${r.atlasX}:${r.atlasY}${convert}[c${i}]`);
    const out = i === parts.length - 1 ? '[v]' : `[o${i}]`;
    chains.push(`${base}[c${i}]overlay=${r.x}:${r.y}:shortest=1:format=yuv420${out}`);
    base = out;
  });
  return chains.join(';');
}
