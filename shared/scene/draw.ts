// Drawing one frame: background, presenter in a pose, captions. Works on any Canvas 2D
// context; the engine (Node) and the preview (browser) call exactly these functions.
import { drawBackground } from './backgrounds.js';
import type { SceneLayout } from './layout.js';
import { type PresenterAssets, type PresenterPart } from './presenters.js';
import { PRESENTER_TORSO_RUNS } from './presenter-torso.js';
import { visualOrder, wordGap } from './scripts.js';
import { captionFont } from './styles.js';
import type { PresenterRig } from './rig.js';
import { eyesShut, type CaptionView, type Ctx2D, type ImageLike, type PresenterPose, type Rect, type Viseme } from './types.js';

/**
 * Optional cache of composed heads (head + eyes + mouth) per pose, so a frame draws one image
 * for the head instead of three. `make` returns an offscreen canvas of the given pixel size.
 */
export interface HeadCache {
  make(width: number, height: number): { canvas: ImageLike; ctx: Ctx2D };
  entries: Map<string, ImageLike>;
}

export function createHeadCache(make: HeadCache['make']): HeadCache {
  return { make, entries: new Map() };
}

function composedHead(assets: PresenterAssets, layout: SceneLayout, viseme: Viseme, blink: boolean, cache: HeadCache): ImageLike {
  const w = Math.ceil(layout.presenter.width);
  const h = Math.ceil(layout.presenter.height);
  const key = `${assets.art.id}:${w}x${h}:${viseme}:${blink ? 1 : 0}`;
  let img = cache.entries.get(key);
  if (!img) {
    const { canvas, ctx } = cache.make(w, h);
    // Parts at the box's exact size (the canvas is rounded up), so the head is drawn 1:1 and
    // lines up with the hair and body drawn at that size.
    for (const part of headParts(viseme, blink)) ctx.drawImage(assets.parts[part], 0, 0, layout.presenter.width, layout.presenter.height);
    cache.entries.set(key, canvas);
    img = canvas;
  }
  return img;
}

function headParts(viseme: Viseme, blink: boolean): PresenterPart[] {
  return ['head', blink ? 'eyes-closed' : 'eyes-open', `mouth-${viseme}`];
}

/**
 * Draws the torso (static) at the layout's box. A presenter placed high would end in mid-air, so
 * the torso's bottom edge is continued down to the frame's bottom edge in the art's own colours
 * (the same few rectangles in the preview and the video).
 */
export function drawTorso(ctx: Ctx2D, assets: PresenterAssets, layout: SceneLayout): void {
  const box = layout.presenter;
  ctx.drawImage(assets.parts.body, box.x, box.y, box.width, box.height);
  const ext = layout.torsoExtension;
  if (!ext) return;
  const k = layout.presenterScale;
  // One pixel of overlap hides the anti-aliased edge of the art.
  const top = Math.floor(ext.y) - 1;
  for (const run of PRESENTER_TORSO_RUNS[assets.art.id] ?? []) {
    ctx.fillStyle = run.color;
    ctx.fillRect(box.x + run.x * k, top, run.width * k + 0.5, ext.y + ext.height - top);
  }
}

/** Draws the presenter at the layout's box in a pose. */
export function drawPresenter(ctx: Ctx2D, assets: PresenterAssets, layout: SceneLayout, pose: PresenterPose, cache?: HeadCache): void {
  const box = layout.presenter;
  const k = layout.presenterScale;
  const headTransform = () => ctx.translate(pose.headDx * k, pose.headDy * k);
  ctx.save();
  ctx.translate(box.x, box.y);
  ctx.save();
  headTransform();
  ctx.drawImage(assets.parts['hair-back'], 0, 0, box.width, box.height);
  ctx.restore();
  ctx.restore();
  drawTorso(ctx, assets, layout);
  ctx.save();
  ctx.translate(box.x, box.y);
  headTransform();
  const shut = eyesShut(pose);
  if (cache) {
    ctx.drawImage(composedHead(assets, layout, pose.viseme, shut, cache), 0, 0, Math.ceil(box.width), Math.ceil(box.height));
  } else {
    for (const part of headParts(pose.viseme, shut)) ctx.drawImage(assets.parts[part], 0, 0, box.width, box.height);
  }
  ctx.restore();
}

/** How far the lowerThird's spoken-word plate reaches past the word on each side, in font px. */
const ACTIVE_PLATE_OUT = 0.12;

/** A word as drawCaption places it: pen at (x, y) (its left edge, its line's middle), advance `width`. */
interface PlacedWord {
  text: string;
  /** Its index in the view's flattened words (what `activeIndex` counts). */
  index: number;
  x: number;
  y: number;
  width: number;
  dir: 'ltr' | 'rtl';
}

/**
 * Where drawCaption puts the words of a view (canvas pixels), in drawing order; leaves the
 * context's font at the caption's (shrunk when a word is too long for the box).
 */
function placeCaption(ctx: Ctx2D, layout: SceneLayout, view: CaptionView): { words: PlacedWord[]; maxLine: number } {
  const { style, caption: box, captionFontPx: px, captionLineHeight: lh, captionPadding: pad } = layout;
  const words = view.lines.map((l) => l.map((w) => (style.uppercase ? w.toUpperCase() : w)));
  const inset = style.caption === 'lowerThird' ? px * 1.6 : style.caption === 'card' ? px * 0.3 : 0;
  const avail = box.width - 2 * pad - inset;
  // Words are placed from the left in visual order: a right-to-left line (Arabic, Hebrew) starts
  // at the right (aligned right in the left-aligned styles), its words reversed.
  const orders = words.map(visualOrder);
  const measure = (fontPx: number) => {
    ctx.font = captionFont(style, fontPx);
    const space = ctx.measureText(' ').width;
    const widths = words.map((l) => l.map((w) => ctx.measureText(w).width));
    // The gap before each word: a space, or nothing inside Chinese and Japanese text.
    // Between visual neighbours (logical order decides which word comes first).
    const gaps = words.map((l, li) =>
      orders[li]!.order.map((wi, p, o) => {
        const next = o[p + 1];
        if (next === undefined) return 0;
        return wordGap(l[Math.min(wi, next)]!, l[Math.max(wi, next)]!) === ' ' ? space : 0;
      }),
    );
    const lineWidths = widths.map((l, li) => l.reduce((a, b) => a + b, 0) + gaps[li]!.reduce((a, b) => a + b, 0));
    return { gaps, widths, lineWidths, max: Math.max(...lineWidths) };
  };
  let m = measure(px);
  // A word too long for the box (a URL, a long compound) shrinks this page's text to fit.
  if (m.max > avail) m = measure(Math.max(8, Math.floor((px * avail) / m.max)));
  const { gaps, widths, lineWidths } = m;
  const top = box.y + (box.height - words.length * lh) / 2;
  const leftAligned = style.caption === 'lowerThird' || style.caption === 'card';
  const textLeft = box.x + pad + inset;
  const textRight = box.x + box.width - pad - (style.caption === 'card' ? inset : 0);
  const placed: PlacedWord[] = [];
  let first = 0;
  words.forEach((line, li) => {
    const y = top + lh * li + lh / 2;
    const { order, rtl, dirs } = orders[li]!;
    let x = !leftAligned ? box.x + (box.width - lineWidths[li]!) / 2 : rtl ? textRight - lineWidths[li]! : textLeft;
    order.forEach((wi, pos) => {
      const width = widths[li]![wi]!;
      placed.push({ text: line[wi]!, index: first + wi, x, y, width, dir: dirs[wi]! });
      x += width + gaps[li]![pos]!;
    });
    first += line.length;
  });
  return { words: placed, maxLine: m.max };
}

/** Draws the caption box and its lines, the spoken word marked in the style's way. */
export function drawCaption(ctx: Ctx2D, layout: SceneLayout, view: CaptionView | null): void {
  if (!view || !view.lines.length) return;
  const { style, caption: box, captionFontPx: px, captionLineHeight: lh, captionPadding: pad } = layout;
  const c = style.colors;
  ctx.save();
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const { words, maxLine } = placeCaption(ctx, layout, view);

  // Plates behind the text.
  switch (style.caption) {
    case 'lowerThird': {
      ctx.fillStyle = c.box;
      ctx.fillRect(box.x, box.y, box.width, box.height);
      ctx.fillStyle = c.accent;
      ctx.fillRect(box.x, box.y, px * 1.6, box.height);
      ctx.fillStyle = '#ffffff';
      ctx.beginPath();
      ctx.arc(box.x + px * 0.8, box.y + box.height / 2, px * 0.28, 0, Math.PI * 2);
      ctx.fill();
      break;
    }
    case 'pill':
    case 'subtitleBox': {
      const w = Math.min(box.width, maxLine + 2 * pad);
      ctx.fillStyle = c.box;
      ctx.beginPath();
      ctx.roundRect(box.x + (box.width - w) / 2, box.y, w, box.height, style.caption === 'pill' ? box.height / 2.4 : px * 0.3);
      ctx.fill();
      break;
    }
    case 'card': {
      ctx.shadowColor = 'rgba(20,40,80,0.18)';
      ctx.shadowBlur = px * 0.6;
      ctx.shadowOffsetY = px * 0.12;
      ctx.fillStyle = c.box;
      ctx.beginPath();
      ctx.roundRect(box.x, box.y, box.width, box.height, px * 0.35);
      ctx.fill();
      ctx.shadowBlur = 0;
      ctx.shadowOffsetY = 0;
      ctx.shadowColor = 'rgba(0,0,0,0)';
      ctx.fillStyle = c.accent;
      ctx.fillRect(box.x, box.y + px * 0.35, px * 0.18, box.height - px * 0.7);
      break;
    }
    default:
      break;
  }

  // What marks the spoken word stays inside captionWordReach: keep the two in step.
  for (const { text: w, index, x, y, width: ww, dir } of words) {
    // The word's own direction puts its punctuation on the right side ("世界。", "مرحبا.").
    ctx.direction = dir;
    const active = index === view.activeIndex;
    if (style.caption === 'lowerThird' && active) {
      ctx.fillStyle = c.accent;
      ctx.beginPath();
      ctx.roundRect(x - px * ACTIVE_PLATE_OUT, y - lh * 0.42, ww + 2 * px * ACTIVE_PLATE_OUT, lh * 0.84, px * 0.12);
      ctx.fill();
    }
    if (style.caption === 'big') {
      ctx.lineJoin = 'round';
      ctx.lineWidth = px * 0.16;
      ctx.strokeStyle = c.accent;
      ctx.strokeText(w, x, y);
    }
    if (style.caption === 'chalk' && active) {
      ctx.strokeStyle = c.active;
      ctx.lineWidth = Math.max(2, px * 0.06);
      ctx.lineCap = 'round';
      ctx.beginPath();
      ctx.moveTo(x, y + px * 0.55);
      ctx.lineTo(x + ww, y + px * 0.5);
      ctx.stroke();
    }
    ctx.fillStyle = active ? c.active : c.text;
    ctx.fillText(w, x, y);
  }
  ctx.restore();
}

/**
 * For each word of `view` (by its index in the flattened words), the rectangle (canvas pixels)
 * outside which drawing the view paints the same pixels whether that word is the spoken one or
 * not: the spoken word's marks (the lowerThird plate, 0.84 of a line high; the chalk underline,
 * 0.55 em below the middle; its colour) stay inside the word's line band, widened by the plate,
 * and its ink (as measured), with a margin for anti-aliasing. The engine reads back only these
 * rectangles when the spoken word moves on within a page.
 */
export function captionWordReach(ctx: Ctx2D, layout: SceneLayout, view: CaptionView): Rect[] {
  const { captionFontPx: px, captionLineHeight: lh } = layout;
  ctx.save();
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const reach: Rect[] = [];
  for (const w of placeCaption(ctx, layout, view).words) {
    ctx.direction = w.dir;
    const ink = ctx.measureText(w.text);
    const underline = w.y + px * 0.55 + Math.max(2, px * 0.06);
    const margin = 2 + px * 0.1;
    const x0 = Math.min(w.x - px * ACTIVE_PLATE_OUT, w.x - ink.actualBoundingBoxLeft) - margin;
    const x1 = Math.max(w.x + w.width + px * ACTIVE_PLATE_OUT, w.x + ink.actualBoundingBoxRight) + margin;
    const y0 = Math.min(w.y - lh / 2, w.y - ink.actualBoundingBoxAscent) - margin;
    const y1 = Math.max(w.y + lh / 2, underline, w.y + ink.actualBoundingBoxDescent) + margin;
    reach[w.index] = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  }
  ctx.restore();
  return reach;
}

export interface FrameState {
  pose: PresenterPose;
  caption: CaptionView | null;
}

export type FrameLayer = 'background' | 'presenter' | 'caption';
const ALL_LAYERS: readonly FrameLayer[] = ['background', 'presenter', 'caption'];

/** How a caller's caches stand in for parts of the drawing (the result is the same pixels). */
export interface FrameHooks {
  /** The background already painted for this layout (the engine paints it once per job). */
  background?: ImageLike;
  /** Composed heads per pose (the engine's). */
  headCache?: HeadCache;
  /** The layers to draw, default all: the engine's compositor draws the caption layer alone. */
  layers?: readonly FrameLayer[];
}

/**
 * Draws a frame: background, presenter in a pose, captions. The one routine behind the preview,
 * the video and the thumbnails. Without art (still loading in the preview) the presenter's
 * painted box is shown as a silhouette, so placement reads the same.
 */
export function drawFrame(ctx: Ctx2D, rig: PresenterRig | null, layout: SceneLayout, state: FrameState, hooks: FrameHooks = {}): void {
  const layers = hooks.layers ?? ALL_LAYERS;
  if (layers.includes('background')) {
    if (hooks.background) ctx.drawImage(hooks.background, 0, 0, layout.size.width, layout.size.height);
    else drawBackground(ctx, layout);
  }
  if (layers.includes('presenter')) {
    if (rig) rig.draw(ctx, layout, state.pose, hooks.headCache);
    else drawSilhouette(ctx, layout.presenterBounds);
  }
  if (layers.includes('caption')) drawCaption(ctx, layout, state.caption);
}

function drawSilhouette(ctx: Ctx2D, b: Rect): void {
  ctx.save();
  ctx.fillStyle = 'rgba(255,255,255,0.18)';
  ctx.beginPath();
  ctx.ellipse(b.x + b.width / 2, b.y + b.height * 0.22, b.width * 0.2, b.height * 0.2, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.beginPath();
  ctx.roundRect(b.x + b.width * 0.08, b.y + b.height * 0.5, b.width * 0.84, b.height * 0.5, [b.width * 0.3, b.width * 0.3, 0, 0]);
  ctx.fill();
  ctx.restore();
}
