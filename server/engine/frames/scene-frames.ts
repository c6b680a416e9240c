// A scene's frames: its layout, presenter art, background and caption pages, and the frame
// source that turns them into whole yuv420p frames, composing again only what changed
// (frame-compositor.ts). Over a still background an unchanged frame is the previous Buffer
// again (the encoder is sent nothing new); over a moving one every frame is its background
// with the layers blended on.
import { Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { outputSize } from '../../../shared/contract/index.js';
import {
  captionAt, captionWordReach, captionWords, captionStateAt, computeLayout, createHeadCache, drawFrame, drawLogo, measureWith,
  NEUTRAL_POSE, holdPages, paginateCaptions, poseAt, type CaptionPage, type FrameLayer, type HeadCache, type PresenterRig, type SceneLayout,
  type TimedWord, type Animation, type MeasureText, type Rect,
} from '../../../shared/scene/index.js';
import { registerFonts } from './assets.js';
import type { LoadedBrand } from './brand.js';
import { paintTemplate } from './backgrounds/index.js';
import { FrameCompositor } from './frame-compositor.js';
import { planRegions } from './regions.js';
import { loadRig } from './rigs.js';
import { copyClip, framePlanes, spriteFromRgba, yuvFrameSize, type Sprite } from './sprites.js';
import type { Box } from './yuv.js';
import type { PhotoPresenterSpec, RenderTask } from '../types.js';

export function headCacheNode(): HeadCache {
  return createHeadCache((w, h) => {
    const canvas = createCanvas(w, h);
    return { canvas, ctx: canvas.getContext('2d') };
  });
}

/** Everything needed to draw any frame of a scene. */
export interface Scene {
  layout: SceneLayout;
  /** null: no presenter in this scene. */
  rig: PresenterRig | null;
  /** The still background painted at the frame size; null when it moves (a clip, given frame by frame). */
  background: Canvas | null;
  pages: CaptionPage[];
  words: TimedWord[];
  cache: HeadCache;
  measure: MeasureText;
  /** The brand's logo at its drawn size (null: none); the layout says where. */
  logo: Canvas | null;
  /** false: captions are not drawn (`params.captions` "file" or "none"); their pages still make the caption file. */
  burnCaptions: boolean;
}

/** What a scene shows beyond its template: its presenter (or none) and its own background. */
export interface SceneLook {
  /** The presenter's art (default the template's). */
  presenterId?: string;
  /** false: no presenter. */
  presenter?: boolean;
  /** A photo presenter in place of the vector art (its files, resolved by the queue). */
  photo?: PhotoPresenterSpec;
  /** A still background painted at the frame size (default the template's art); null: a moving one. */
  background?: (layout: SceneLayout) => Promise<Canvas | null>;
  /** Extension `brand`: the video's brand (loadBrand). */
  brand?: LoadedBrand;
}

/** True when a job's captions are drawn into its frames (the default). */
export const burnsCaptions = (params: Pick<RenderTask['params'], 'captions'>): boolean => (params.captions ?? 'burned') === 'burned';

/** `size`: the frame's (the task's output size unless given; the rehearsal draws smaller frames). */
export async function prepareScene(
  templateId: string, task: Pick<RenderTask, 'params' | 'shortSide'>, words: TimedWord[], size = outputSize(task.params.aspectRatio, task.shortSide), look: SceneLook = {},
): Promise<Scene> {
  registerFonts();
  // A photo rig's geometry comes from its portrait: it is loaded before the layout.
  const photo = look.presenter === false || !look.photo ? null : await loadRig(look.photo, 0);
  const layout = computeLayout(templateId, task.params, size, photo ? photo.geometry : look.presenterId, look.presenter !== false, look.brand?.scene);
  const [rig, background] = await Promise.all([
    look.presenter === false ? null : photo ?? loadRig({ kind: 'vector', id: layout.style.presenterId }, layout.presenter.height),
    look.background ? look.background(layout) : paintTemplate(layout),
  ]);
  const measure = measureWith(createCanvas(2, 2).getContext('2d'), layout);
  const logo = layout.logo ? (look.brand?.logo ?? null) : null;
  const scene: Scene = { layout, rig, background, pages: [], words: [], cache: headCacheNode(), measure, logo, burnCaptions: burnsCaptions(task.params) };
  addCaptionPages(scene, words);
  return scene;
}

/**
 * Adds the caption words and pages of newly spoken words (Chinese and Japanese split into their
 * words, `captionWords`). They start a sentence (narration chunks end at sentence ends, and a
 * sentence ends a page), so pages made chunk by chunk are the pages of the whole script.
 */
export function addCaptionPages(scene: Scene, spoken: readonly TimedWord[]): void {
  const words = captionWords(spoken);
  const first = scene.words.length;
  scene.words.push(...words);
  const joint = scene.pages.length;
  for (const page of paginateCaptions(scene.layout, words, scene.measure)) {
    scene.pages.push({ ...page, lines: page.lines.map((l) => l.map((i) => i + first)) });
  }
  holdPages(scene.pages, scene.layout.style.captionLines, joint);
}

const WITH_PRESENTER: readonly FrameLayer[] = ['background', 'presenter', 'logo', 'caption'];
const WITHOUT_PRESENTER: readonly FrameLayer[] = ['background', 'logo', 'caption'];

/** The logo as a sprite at its place in the frame (drawn by shared/scene on an even-edged canvas around it), or null. */
export function logoSprite(layout: SceneLayout, logo: Canvas | null): Sprite | null {
  const r = layout.logo;
  if (!r || !logo) return null;
  const { width: W, height: H } = layout.size;
  const x0 = Math.max(0, Math.floor(r.x / 2) * 2);
  const y0 = Math.max(0, Math.floor(r.y / 2) * 2);
  const x1 = Math.min(W, Math.ceil((r.x + r.width) / 2) * 2);
  const y1 = Math.min(H, Math.ceil((r.y + r.height) / 2) * 2);
  if (x1 - x0 < 2 || y1 - y0 < 2) return null;
  const c = createCanvas(x1 - x0, y1 - y0);
  const ctx = c.getContext('2d');
  ctx.translate(-x0, -y0);
  drawLogo(ctx, layout, logo);
  return spriteFromRgba(c.data(), x1 - x0, y1 - y0, x0, y0);
}

/** The whole frame at time t on a canvas, over the scene's painted background (or `background`, a moving one's frame). */
function drawSceneFrame(ctx: SKRSContext2D, scene: Scene, anim: Animation, t: number, background = scene.background): void {
  const state = { pose: poseAt(anim, t), caption: scene.burnCaptions ? captionAt(scene.pages, scene.words, t) : null };
  const layers = scene.rig ? WITH_PRESENTER : WITHOUT_PRESENTER;
  drawFrame(ctx, scene.rig, scene.layout, state, { background: background ?? undefined, headCache: scene.cache, layers, logo: scene.logo ?? undefined });
}

/** Draws the full frame at time t (for thumbnails and stills); `background`: a moving background's frame at t. */
export function drawFullFrame(scene: Scene, anim: Animation, t: number, background?: Canvas): Canvas {
  const { width, height } = scene.layout.size;
  const c = createCanvas(width, height);
  drawSceneFrame(c.getContext('2d'), scene, anim, t, background ?? scene.background);
  return c;
}

/**
 * Frees the scene's bitmaps (presenter layers, background, head cache) once the compositor has
 * cut its sprites: shrinking a canvas frees its pixels now, not whenever the GC gets to it.
 */
export function releaseArt(scene: Scene): void {
  for (const part of Object.values(scene.rig?.layers?.parts ?? {})) {
    if (part instanceof Canvas) {
      part.width = 1;
      part.height = 1;
    }
  }
  if (scene.background) {
    scene.background.width = 1;
    scene.background.height = 1;
  }
  scene.cache = headCacheNode();
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

  /** The frames to come are another scene's: no buffer is a few boxes behind them any more. */
  forget(): void {
    this.behind.clear();
  }

  release(b: Buffer): void {
    const n = (this.inFlight.get(b) ?? 1) - 1;
    if (n > 0) return void this.inFlight.set(b, n);
    this.inFlight.delete(b);
    if (this.free.length < 4) this.free.push(b);
    else this.behind.delete(b);
  }
}

/** Where a render's frames come from; `Frame` a promise only where it waits for a moving background. */
export interface FrameSource<Frame extends Buffer | Promise<Buffer> = Buffer | Promise<Buffer>> {
  /** The frame at time t (times only grow). */
  frame(t: number): Frame;
  /** Work that needs no narration yet (the first pose's sprites), done while the first sentence is spoken. */
  prime(): void;
  /** No one else needs the presenter's art any more (the thumbnail is drawn): the source may let it go. */
  artDone(): void;
}

/** Baseline for benchmarks: every whole frame drawn and piped as RGBA (it keeps the art; still backgrounds only). */
export function fullFrameSource(scene: Scene, anim: Animation): FrameSource<Buffer> {
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
 * Whole frames as yuv420p, composed in the engine (frame-compositor.ts). Over a still background
 * a frame is the previous one with only what changed composed again: the head's region when the
 * pose moves (idle motion snapped to whole pixels), the caption box when the page or the spoken
 * word changes (drawn by Skia then, and only then); an unchanged frame is the previous Buffer
 * written again. Over a moving background (`moving`, the frame at t) every layer is blended onto
 * each of its frames.
 */
export function composedSource(scene: Scene, anim: Animation, pool: FramePool): FrameSource<Buffer>;
export function composedSource(scene: Scene, anim: Animation, pool: FramePool, moving: ((t: number) => Promise<Uint8Array>) | undefined): FrameSource;
export function composedSource(scene: Scene, anim: Animation, pool: FramePool, moving?: (t: number) => Promise<Uint8Array>): FrameSource {
  const { layout } = scene;
  const W = layout.size.width | 0; // whole numbers as V8 keeps them (see PixelRect)
  const H = layout.size.height | 0;
  const plan = planRegions(layout);
  // Sprites are cut as poses first need them until artDone, which cuts the rest.
  const redraw = scene.rig?.compositing === 'redraw' ? scene.rig : null;
  const compositor = new FrameCompositor(layout, scene.rig?.layers ?? null, moving ? null : scene.background, plan, logoSprite(layout, scene.logo), redraw);
  const cr = scene.burnCaptions ? plan.caption : null;
  const cCanvas = cr ? createCanvas(cr.width, cr.height) : null;
  const cctx = cCanvas?.getContext('2d');
  const readBack = regionReader();
  let captionPage = NaN;
  let captionActive = NaN;
  let pageReach: Rect[] | null = null;
  let frame: Buffer | null = null;
  /** The presenter's pose and the caption at t; returns the boxes that changed. */
  const update = (t: number): Box[] => {
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
          // differ, so only their rectangles are read back (a whole read-back costs much more).
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
    return dirty;
  };
  const stillFrame = (t: number): Buffer => {
    const dirty = update(t);
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
  const movingFrame = async (t: number): Promise<Buffer> => {
    const background = await moving!(t);
    update(t);
    const { buf: next } = pool.take(yuvFrameSize(W, H));
    pool.hold(next);
    next.set(background);
    compositor.composeOver(framePlanes(next, W, H));
    if (frame) pool.release(frame);
    frame = next;
    return next;
  };
  return {
    frame: moving ? movingFrame : stillFrame,
    prime() {
      compositor.setPose(poseAt(anim, 0));
    },
    artDone() {
      compositor.cutAll();
      releaseArt(scene);
    },
  };
}
