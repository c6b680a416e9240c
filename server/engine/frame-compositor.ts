// Whole yuv420p frames composed in the engine from YUV sprites (see sprites.ts), in the layer
// order of shared/scene: background, the hair behind the body, the body (static), head, eyes,
// mouth, then the caption layer. Moving layers are cut by Skia once per (part, pixel
// phase); a frame is the previous one with only what changed composed again (the head's region
// when the pose moves, the caption box when the spoken word changes). ffmpeg then receives
// frames it can hand to x264 as they are, the same work as encoding from a raw file.
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { drawTorso, type PresenterAssets, type PresenterPart, type PresenterPose, type Rect, type SceneLayout } from '../../shared/scene/index.js';
import { allocSprite, blendSprite, changedBox, copyClip, splitOffset, spriteFromRgba, updateSprite, type Sprite, type Target } from './sprites.js';
import { rgbaToYuva, words, type Box } from './yuv.js';

type Ctx = ReturnType<Canvas['getContext']>;

interface Placement {
  key: string;
  ex: number;
  ey: number;
  px: number;
  py: number;
  eyes: PresenterPart;
  mouth: PresenterPart;
}

const toBox = (r: Rect): Box => ({ x0: r.x, y0: r.y, x1: r.x + r.width, y1: r.y + r.height });
const union = (a: Box | null, b: Box): Box =>
  a ? { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) } : b;
/** Inside the frame (sprite boxes and offsets are even, so the result is too), or null when outside. */
function clipTo(b: Box, width: number, height: number): Box | null {
  const c = { x0: Math.max(0, b.x0), y0: Math.max(0, b.y0), x1: Math.min(width, b.x1), y1: Math.min(height, b.y1) };
  return c.x1 > c.x0 && c.y1 > c.y0 ? c : null;
}

export class FrameCompositor {
  readonly width: number;
  readonly height: number;
  private readonly bg: Target;
  private readonly torso: Sprite | null;
  private readonly sprites = new Map<string, Sprite | null>();
  private readonly cutCanvas: Canvas | null;
  private readonly cutCtx: Ctx | null;
  private placementNow: Placement | null = null;
  private caption: Sprite | null = null;
  private captionRgba: Uint32Array | null = null;

  /**
   * `head` is the region the moving layers stay inside in every pose (even coordinates and size,
   * see planRegions; null when the presenter is off the frame); `background` is the whole frame.
   */
  constructor(
    private readonly layout: SceneLayout,
    private readonly assets: PresenterAssets,
    background: Canvas,
    private readonly head: Rect | null,
  ) {
    const { width, height } = layout.size;
    this.width = width;
    this.height = height;
    this.bg = rgbaToYuva(background.data(), width, height);
    const frame = createCanvas(width, height);
    const fctx = frame.getContext('2d');
    drawTorso(fctx, assets, layout);
    this.torso = spriteFromRgba(frame.data(), width, height);
    this.cutCanvas = head ? createCanvas(head.width, head.height) : null;
    this.cutCtx = this.cutCanvas?.getContext('2d') ?? null;
  }

  /** Where a pose puts the moving layers (even offsets and one-pixel phases) and which parts show. */
  private place(pose: PresenterPose): Placement {
    const k = this.layout.presenterScale;
    const { even: ex, phase: px } = splitOffset(pose.headDx * k);
    const { even: ey, phase: py } = splitOffset(pose.headDy * k);
    return {
      key: `${pose.viseme}:${pose.blink ? 1 : 0}:${ex + px}:${ey + py}`, ex, ey, px, py,
      eyes: pose.blink ? 'eyes-closed' : 'eyes-open', mouth: `mouth-${pose.viseme}`,
    };
  }

  /**
   * Sets the presenter's pose; returns the rectangle to compose again, or null when nothing
   * changed: the head's region when it moved, only the mouth's (and eyes') box when just those
   * changed (most pose changes while speaking are a new mouth shape).
   */
  setPose(pose: PresenterPose): Box | null {
    const p = this.place(pose);
    const was = this.placementNow;
    if (p.key === was?.key) return null;
    this.placementNow = p;
    if (!this.head) return null;
    if (!was || was.ex !== p.ex || was.ey !== p.ey || was.px !== p.px || was.py !== p.py) return toBox(this.head);
    let box: Box | null = null;
    for (const [before, now] of [[was.mouth, p.mouth], [was.eyes, p.eyes]] as const) {
      if (before === now) continue;
      for (const part of [before, now]) {
        const s = this.moving(part, p.px, p.py);
        if (s) box = union(box, { x0: s.x + p.ex, y0: s.y + p.ey, x1: s.x + p.ex + s.width, y1: s.y + p.ey + s.height });
      }
    }
    return box && clipTo(box, this.width, this.height);
  }

  /**
   * Sets the caption layer from premultiplied RGBA of the caption box `box` (even coordinates
   * and size, the same on every call; a transparent image clears it). Only the pixels that
   * changed are converted; returns the rectangle to compose again, or null when none changed.
   */
  setCaption(rgba: Uint8Array, box: Rect): Box | null {
    const next = words(rgba);
    const changed = changedBox(this.captionRgba, next, box.width, box.height);
    if (!changed) return null;
    this.caption ??= allocSprite(box.x, box.y, box.width, box.height);
    this.captionRgba ??= new Uint32Array(next.length);
    updateSprite(this.caption, rgba, changed);
    this.captionRgba.set(next);
    return { x0: box.x + changed.x0, y0: box.y + changed.y0, x1: box.x + changed.x1, y1: box.y + changed.y1 };
  }

  /** Composes every layer inside `clip` of `target` (a whole frame). */
  compose(target: Target, clip: Box = { x0: 0, y0: 0, x1: this.width, y1: this.height }): void {
    copyClip(target, this.bg, clip);
    const p = this.placementNow;
    const moving = (part: PresenterPart) => {
      if (!p) return;
      const s = this.moving(part, p.px, p.py);
      if (s) blendSprite(target, s, p.ex, p.ey, clip);
    };
    moving('hair-back');
    if (this.torso) blendSprite(target, this.torso, 0, 0, clip);
    moving('head');
    if (p) moving(p.eyes);
    if (p) moving(p.mouth);
    if (this.caption) blendSprite(target, this.caption, 0, 0, clip);
  }

  /** How many moving-layer sprites have been cut so far (each a Skia draw and a conversion). */
  get spriteCount(): number {
    return this.sprites.size;
  }

  private moving(part: PresenterPart, px: number, py: number): Sprite | null {
    const key = `${part}:${px}:${py}`;
    const known = this.sprites.get(key);
    if (known !== undefined) return known;
    const { cutCtx: ctx, cutCanvas: canvas, head } = this;
    if (!ctx || !canvas || !head) return null;
    const box = this.layout.presenter;
    ctx.clearRect(0, 0, head.width, head.height);
    ctx.drawImage(this.assets.parts[part] as Canvas, box.x - head.x + px, box.y - head.y + py, box.width, box.height);
    const s = spriteFromRgba(canvas.data(), head.width, head.height, head.x, head.y);
    this.sprites.set(key, s);
    return s;
  }
}
