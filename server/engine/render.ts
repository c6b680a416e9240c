// One render: speech → frames (only what changes) → ffmpeg → video.mp4, captions.vtt,
// thumbnail.jpg in the task's work directory. Temporary files are removed on every path.
import { once } from 'node:events';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { outputSize, OUTPUT_FPS } from '../../shared/contract/index.js';
import {
  captionAt, computeLayout, createAnimation, createHeadCache, drawBackground, drawCaption, drawPresenter, measureWith,
  paginateCaptions, poseAt, SCENE_STYLES, type CaptionPage, type HeadCache, type PresenterAssets, type SceneLayout,
  type TimedWord,
} from '../../shared/scene/index.js';
import { loadPresenterNode, registerFonts } from './assets.js';
import { runFfmpeg } from './ffmpeg.js';
import { planRegions } from './regions.js';
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
    const sp = await speech.synthesize(task.text, voice, signal);
    report(0.05);
    if (signal.aborted) throw canceled();
    const duration = sp.timeline.durationSeconds;
    const scene = await prepareScene(task.templateId, task, sp.timeline.words);
    const anim = createAnimation(sp.timeline);
    const { layout } = scene;
    const { width: W, height: H } = layout.size;
    await writeFile(audioPath, wavBytes(sp.samples, sp.sampleRate));
    await writeFile(bgPath, await scene.background.encode('png'));

    const plan = planRegions(layout);
    const atlas = createCanvas(plan.atlasWidth, plan.atlasHeight);
    const actx = atlas.getContext('2d');
    const frames = Math.max(1, Math.ceil(duration * OUTPUT_FPS));

    // The background enters once and is looped inside ffmpeg; the atlas rows are cropped
    // and laid over it at their frame positions (even offsets: a plain copy in yuv420p).
    const chains: string[] = [`[0:v]format=yuv420p,loop=loop=-1:size=1:start=0,setpts=N/${OUTPUT_FPS}/TB[bg]`];
    const n = plan.regions.length;
    chains.push(`[1:v]format=yuv420p${n > 1 ? `,split=${n}${plan.regions.map((_, i) => `[a${i}]`).join('')}` : '[a0]'}`);
    let base = '[bg]';
    plan.regions.forEach((r, i) => {
      chains.push(`[a${i}]crop=${r.width}:${r.height}:0:${r.atlasY}[c${i}]`);
      const out = i === n - 1 ? '[v]' : `[o${i}]`;
      chains.push(`${base}[c${i}]overlay=${r.x}:${r.y}:shortest=1${out}`);
      base = out;
    });
    const args = [
      '-y', '-framerate', String(OUTPUT_FPS), '-i', bgPath,
      '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${plan.atlasWidth}x${plan.atlasHeight}`, '-framerate', String(OUTPUT_FPS), '-i', 'pipe:0',
      '-i', audioPath,
      '-filter_complex', chains.join(';'),
      '-map', '[v]', '-map', '2:a',
      '-c:v', 'libx264', '-preset', encode.preset, '-crf', String(encode.crf), ...(encode.x264Params ? ['-x264-params', encode.x264Params] : []),
      '-pix_fmt', 'yuv420p', '-r', String(OUTPUT_FPS),
      '-c:a', 'aac', '-b:a', '128k', '-ar', '44100',
      '-movflags', '+faststart', '-f', 'mp4', tmpVideo,
    ];
    const ff = runFfmpeg(args, signal, 'encoding the video');
    const failed = ff.done.then(() => null, (e: unknown) => e);

    const stdin = ff.proc.stdin!;
    for (let f = 0; f < frames; f++) {
      if (signal.aborted) break;
      drawAtlas(actx, scene, plan.regions, anim, f / OUTPUT_FPS);
      if (!stdin.write(atlas.data())) {
        const r = await Promise.race([once(stdin, 'drain').then(() => null), failed]);
        if (r) break;
      }
      if (f % 15 === 0) report(0.05 + 0.9 * (f / frames));
    }
    stdin.end();
    await ff.done;
    report(0.96);

    await writeFile(join(workDir, 'captions.vtt'), toWebVtt(scene.pages, scene.words, duration));
    const thumbT = scene.words.length ? Math.min(duration, scene.words[Math.min(2, scene.words.length - 1)]!.start + 0.05) : 0;
    await writeFile(join(workDir, 'thumbnail.jpg'), await drawFullFrame(scene, anim, thumbT).encode('jpeg', 86));
    await rename(tmpVideo, join(workDir, 'video.mp4'));
    report(1);
    return { durationSeconds: Math.round(duration * 1000) / 1000, width: W, height: H };
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

function drawAtlas(
  ctx: SKRSContext2D,
  scene: Scene,
  regions: ReturnType<typeof planRegions>['regions'],
  anim: ReturnType<typeof createAnimation>,
  t: number,
): void {
  const pose = poseAt(anim, t);
  const caption = captionAt(scene.pages, scene.words, t);
  for (const r of regions) {
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, r.atlasY, r.width, r.height);
    ctx.clip();
    ctx.translate(-r.x, r.atlasY - r.y);
    ctx.drawImage(scene.background, r.x, r.y, r.width, r.height, r.x, r.y, r.width, r.height);
    drawPresenter(ctx, scene.assets, scene.layout, pose, scene.cache);
    drawCaption(ctx, scene.layout, caption);
    ctx.restore();
  }
}
