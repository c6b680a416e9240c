// Whole yuv420p frames composed in the engine from YUV sprites (see sprites.ts), in the layer
// order of shared/scene (LAYERS_UNDER_FACE, then the face's parts, then the caption). Each moving
// layer is drawn by Skia once and cut into its four pixel phases. Over a still background a
// frame is the previous one with only what changed composed again (the mouth's or eyes' box,
// the head's region when it moves, the caption's changed bands), from cached layers under the
// face and a background-and-body image; over a moving background (a clip) every layer is
// blended onto that frame's background. ffmpeg then receives frames it can hand to x264 as
// they are, the same work as encoding from a raw file.
//
// A 'redraw' rig has no layers: its still part (drawStill, with the moving region left clear) is
// the body sprite, and whenever its pose changes it is drawn again inside the moving region only
// and cut into one sprite there; the photo rig draws that sprite straight in YUV, only where the
// pose changed it (photo-face.ts).
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import {
  drawTorso, eyesShut, PRESENTER_PARTS, type PresenterAssets, type PresenterPart, type PresenterPose, type PresenterRig, type Rect, type SceneLayout,
} from '../../../shared/scene/index.js';
import { isPhotoRig } from '../../../shared/scene/photo-rig.js';
import type { PixelRect, RegionPlan } from './regions.js';
import { allocSprite, blendSprite, changedBoxes, changedBoxesIn, copyClip, copyRegion, splitOffset, spriteFromRgba, updateSprite, type Sprite, type Target } from './sprites.js';
import { rgbaToYuva, unionBox, words, type Box } from './yuv.js';
import { PhotoFaceSprite } from './photo-face.js';

type Ctx = ReturnType<Canvas['getContext']>;

/** The presenter's layers under the face, back to front; the eyes and mouth of the pose, then the caption, go over them. */
const LAYERS_UNDER_FACE = ['hair-back', 'body', 'head'] as const satisfies readonly PresenterPart[];

interface Placement {
  key: string;
  ex: number;
  ey: number;
  px: number;
  py: number;
  eyes: PresenterPart;
  mouth: PresenterPart;
}

/** The exact box of non-transparent pixels of RGBA words (not widened), or null when none. */
function paintedBox(px: Int32Array, width: number, height: number): Box | null {
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (let j = 0; j < height; j++) {
    const row = j * width;
    let a = 0;
    while (a < width && px[row + a] === 0) a++;
    if (a === width) continue;
    let b = width;
    while (px[row + b - 1] === 0) b--;
    if (a < x0) x0 = a;
    if (b > x1) x1 = b;
    if (j < y0) y0 = j;
    y1 = j + 1;
  }
  return x1 > x0 ? { x0, y0, x1, y1 } : null;
}

const toBox = (r: Rect): Box => ({ x0: r.x, y0: r.y, x1: r.x + r.width, y1: r.y + r.height });
/** True when a sprite's box and a rectangle share a pixel. */
function overlaps(s: Sprite, r: Rect | null): boolean {
  return !!r && s.x < r.x + r.width && r.x < s.x + s.width && s.y < r.y + r.height && r.y < s.y + s.height;
}
/** Inside the frame (sprite boxes and offsets are even, so the result is too), or null when outside. */
function clipTo(b: Box, width: number, height: number): Box | null {
  const c = { x0: Math.max(0, b.x0), y0: Math.max(0, b.y0), x1: Math.min(width, b.x1), y1: Math.min(height, b.y1) };
  return c.x1 > c.x0 && c.y1 > c.y0 ? c : null;
}

export class FrameCompositor {
  readonly width: number;
  readonly height: number;
  /** The still background as planes (null: a moving one, given with every frame). */
  private readonly bg: Target | null;
  /** The region the moving layers stay inside in every pose (null: no presenter, or off the frame). */
  private readonly head: PixelRect | null;
  private readonly torso: Sprite | null;
  private readonly sprites = new Map<string, Sprite | null>();
  private cutCanvas: Canvas | null;
  private cutCtx: Ctx | null;
  /** Set by cutAll: every sprite exists, and the art may be gone. */
  private allCut = false;
  private placementNow: Placement | null = null;
  private caption: Sprite | null = null;
  private captionRgba: Int32Array | null = null;
  private readonly unders = new Map<string, Target>();
  private stillFrame: Target | null = null;
  /** A 'redraw' rig's pose key, its moving region's sprite and that region composed over the still background. */
  private redrawKey: string | null = null;
  private face: Sprite | null = null;
  private faceUnder: Target | null = null;
  /** What of faceUnder is behind the face sprite (head-region pixels, even edges; null: all of it is current). */
  private faceStale: Box | null = null;
  /** The photo rig's moving region drawn in YUV (null: another redraw rig, drawn by Skia). */
  private photo: PhotoFaceSprite | null = null;
  /** Where a 'redraw' rig's head was last drawn (pose units), and how many times it has moved. */
  private headDrawn: { headDx: number; headDy: number; headRoll: number; step: number } | null = null;
  /** The logo when it must be blended with every composed frame (it overlaps the presenter, or the background moves). */
  private readonly logo: Sprite | null;

  /**
   * `regions`: where the layers reach (planRegions); `background` is the whole frame when it is
   * still, null when it moves; `assets` null: no presenter.
   */
  constructor(
    private readonly layout: SceneLayout,
    private readonly assets: PresenterAssets | null,
    background: Canvas | null,
    regions: RegionPlan,
    /** The brand's logo, over the presenter and under the caption (null: none). */
    logo: Sprite | null = null,
    /** A rig drawn again in its moving region for each pose (compositing 'redraw'); `assets` is then null. */
    private readonly redraw: PresenterRig | null = null,
  ) {
    // Whole numbers as V8 keeps them (see PixelRect): the layout's objects may hold doubles.
    const width = layout.size.width | 0;
    const height = layout.size.height | 0;
    this.width = width;
    this.height = height;
    this.bg = background ? rgbaToYuva(background.data(), width, height) : null;
    this.head = assets || redraw ? regions.presenter : null;
    const body = assets || redraw ? regions.body : null;
    if (body) {
      // The body is cut from a canvas just big enough for it.
      const part = createCanvas(body.width, body.height);
      const pctx = part.getContext('2d');
      pctx.translate(-body.x, -body.y);
      if (assets) drawTorso(pctx, assets, layout);
      else if (redraw) {
        redraw.drawStill(pctx, layout);
        // The moving region is the face sprite's alone.
        const head = this.head;
        if (head) pctx.clearRect(head.x, head.y, head.width, head.height);
      }
      this.torso = spriteFromRgba(part.data(), body.width, body.height, body.x, body.y);
    } else this.torso = null;
    this.cutCanvas = this.head ? createCanvas(this.head.width, this.head.height) : null;
    this.cutCtx = this.cutCanvas?.getContext('2d') ?? null;
    // A logo clear of the presenter's regions never has anything drawn over it but the caption:
    // it becomes part of the still background once, and a frame composes it no more.
    if (logo && this.bg && !overlaps(logo, this.head) && !overlaps(logo, body)) {
      blendSprite(this.bg, logo, 0, 0);
      this.logo = null;
    } else this.logo = logo;
  }

  /** Where a pose puts the moving layers (even offsets and one-pixel phases) and which parts show. */
  private place(pose: PresenterPose): Placement {
    const k = this.layout.presenterScale;
    const { even: ex, phase: px } = splitOffset(pose.headDx * k);
    const { even: ey, phase: py } = splitOffset(pose.headDy * k);
    return {
      key: `${pose.viseme}:${eyesShut(pose) ? 1 : 0}:${ex + px}:${ey + py}`, ex, ey, px, py,
      eyes: eyesShut(pose) ? 'eyes-closed' : 'eyes-open', mouth: `mouth-${pose.viseme}`,
    };
  }

  /**
   * Sets the presenter's pose; returns the rectangle to compose again, or null when nothing
   * changed: the head's region when it moved, only the mouth's (and eyes') box when just those
   * changed (most pose changes while speaking are a new mouth shape).
   */
  setPose(pose: PresenterPose): Box | null {
    if (this.redraw) return this.setRedrawPose(pose);
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
        if (s) box = unionBox(box, { x0: s.x + p.ex, y0: s.y + p.ey, x1: s.x + p.ex + s.width, y1: s.y + p.ey + s.height });
      }
    }
    return box && clipTo(box, this.width, this.height);
  }

  /**
   * Sets the caption layer from premultiplied RGBA of the caption box `box` (even coordinates
   * and size, the same on every call; a transparent image clears it). Only the pixels that
   * changed are converted; returns the rectangles to compose again (none when nothing changed).
   * The compositor keeps `rgba` (to compare the next one with, and patchCaption writes into it): pass a fresh image every time.
   */
  setCaption(rgba: Uint8Array, box: Rect): Box[] {
    const next = words(rgba);
    const changed = changedBoxes(this.captionRgba, next, box.width, box.height);
    this.captionRgba = next;
    if (!changed.length) return changed;
    this.caption ??= allocSprite(box.x, box.y, box.width, box.height);
    for (const c of changed) updateSprite(this.caption, rgba, c);
    return changed.map((c) => ({ x0: box.x + c.x0, y0: box.y + c.y0, x1: box.x + c.x1, y1: box.y + c.y1 }));
  }

  /**
   * Changes the caption layer only inside `r` (pixels of the caption box `box`, even edges; a
   * setCaption came first): `rgba` holds premultiplied RGBA of that rectangle, its rows `stride`
   * pixels apart. Returns the rectangles to compose again, as setCaption.
   */
  patchCaption(rgba: Uint8Array, stride: number, r: Box, box: Rect): Box[] {
    const all = this.captionRgba;
    if (!all) throw new Error('patchCaption needs the whole caption first (setCaption).');
    const w = r.x1 - r.x0;
    const at = r.y0 * box.width + r.x0;
    const changed = changedBoxesIn(all.subarray(at), box.width, words(rgba), stride, w, r.y1 - r.y0);
    if (!changed.length) return changed;
    const caption = (this.caption ??= allocSprite(box.x, box.y, box.width, box.height));
    const bytes = new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
    for (let j = r.y0; j < r.y1; j++) bytes.set(rgba.subarray((j - r.y0) * stride * 4, ((j - r.y0) * stride + w) * 4), (j * box.width + r.x0) * 4);
    return changed.map((c) => {
      const b = { x0: r.x0 + c.x0, y0: r.y0 + c.y0, x1: r.x0 + c.x1, y1: r.y0 + c.y1 };
      updateSprite(caption, bytes, b);
      return { x0: box.x + b.x0, y0: box.y + b.y0, x1: box.x + b.x1, y1: box.y + b.y1 };
    });
  }

  /**
   * A 'redraw' rig: draws the moving region again when the pose differs visibly (a 32nd of the
   * jaw's travel, a 16th of the lids', a pixel of head motion). The head stays where it was drawn
   * until the pose would move some point of the face a whole pixel from there (translation plus
   * roll at the face's farthest point; the region's far edge, for another rig), and is then drawn
   * where the pose has it: sway, nod and roll step together, as few times as a pixel's steps
   * allow, and between two steps the photo rig draws only the mouth and eyes again.
   */
  private setRedrawPose(pose: PresenterPose): Box | null {
    const { head, cutCtx: ctx, cutCanvas: canvas } = this;
    if (!head) return null;
    const k = this.layout.presenterScale;
    if (isPhotoRig(this.redraw!)) this.photo ??= new PhotoFaceSprite(this.redraw.face(this.layout), head);
    const reach = this.photo ? this.photo.reach : Math.max(head.width, head.height);
    let h = this.headDrawn;
    const away = h ? Math.hypot((pose.headDx - h.headDx) * k, (pose.headDy - h.headDy) * k) + reach * Math.abs(pose.headRoll - h.headRoll) : Infinity;
    const headMoved = away >= 1;
    if (!h || headMoved) h = this.headDrawn = { headDx: pose.headDx, headDy: pose.headDy, headRoll: pose.headRoll, step: (h?.step ?? 0) + 1 };
    const key = `${pose.viseme}:${Math.round(pose.open * 32)}:${Math.round(pose.lid * 16)}:${h.step}`;
    if (key === this.redrawKey) return null;
    this.redrawKey = key;
    const snapped = { ...pose, headDx: h.headDx, headDy: h.headDy, headRoll: h.headRoll };
    const all = { x0: 0, y0: 0, x1: head.width, y1: head.height };
    if (this.photo) {
      this.face = this.photo.sprite;
      if (headMoved) this.photo.restart();
      const changed = this.photo.draw(snapped);
      if (!changed) return null;
      this.faceStale = this.faceUnder ? unionBox(this.faceStale, changed) : all;
      return { x0: head.x + changed.x0, y0: head.y + changed.y0, x1: head.x + changed.x1, y1: head.y + changed.y1 };
    }
    if (!ctx || !canvas) return null;
    ctx.clearRect(0, 0, head.width, head.height);
    ctx.save();
    ctx.translate(-head.x, -head.y);
    this.redraw!.draw(ctx, this.layout, snapped);
    ctx.restore();
    // One sprite and one composed region, refilled for every pose (a redraw rig changes most frames).
    this.face ??= allocSprite(head.x, head.y, head.width, head.height);
    updateSprite(this.face, canvas.data());
    this.faceStale = all;
    return toBox(head);
  }

  /** Composes every layer inside `clip` of `target` (a whole frame) over the still background. */
  compose(target: Target, clip: Box = { x0: 0, y0: 0, x1: this.width, y1: this.height }): void {
    const bg = this.bg;
    if (!bg) throw new Error('compose needs a still background (composeOver for a moving one).');
    const p = this.placementNow;
    const head = this.head;
    if (this.redraw && head && clip.x0 >= head.x && clip.y0 >= head.y && clip.x1 <= head.x + head.width && clip.y1 <= head.y + head.height) {
      copyRegion(target, this.redrawUnder(head, bg), head.x, head.y, clip);
    } else if (p && head && clip.x0 >= head.x && clip.y0 >= head.y && clip.x1 <= head.x + head.width && clip.y1 <= head.y + head.height) {
      // Inside the head's region: the layers under the face, as composed for this placement,
      // are copied; only eyes, mouth and caption are blended.
      copyRegion(target, this.under(p, head, bg), head.x, head.y, clip);
    } else if (!head || clip.x0 >= head.x + head.width || clip.x1 <= head.x || clip.y0 >= head.y + head.height || clip.y1 <= head.y) {
      // Away from the head (the caption's box): background and body never change there.
      copyClip(target, this.still(bg), clip);
    } else {
      copyClip(target, bg, clip);
      this.blendUnder(target, p, 0, 0, clip);
    }
    this.blendOver(target, p, clip);
  }

  /** Every layer blended onto `target`, a whole frame already holding its (moving) background. */
  composeOver(target: Target): void {
    const all = { x0: 0, y0: 0, x1: this.width, y1: this.height };
    this.blendUnder(target, this.placementNow, 0, 0, all);
    this.blendOver(target, this.placementNow, all);
  }

  /**
   * The layers under the face (hair behind the body, body, head), onto a target whose top-left
   * is at (x, y) in the frame; a 'redraw' rig's still part and its moving region's sprite.
   */
  private blendUnder(target: Target, p: Placement | null, x: number, y: number, clip: Box): void {
    for (const layer of LAYERS_UNDER_FACE) {
      if (layer === 'body') {
        if (this.torso) blendSprite(target, this.torso, -x, -y, clip);
      } else if (p) {
        const s = this.moving(layer, p.px, p.py);
        if (s) blendSprite(target, s, p.ex - x, p.ey - y, clip);
      }
    }
    if (this.face) blendSprite(target, this.face, -x, -y, clip);
  }

  /** A 'redraw' rig's moving region composed over the still background for the current pose. */
  private redrawUnder(head: PixelRect, bg: Target): Target {
    const { width, height } = head;
    let stale = this.faceStale;
    if (!this.faceUnder) {
      this.faceUnder = { width, height, y: new Uint8Array(width * height), u: new Uint8Array((width * height) >> 2), v: new Uint8Array((width * height) >> 2) };
      stale = { x0: 0, y0: 0, x1: width, y1: height };
    }
    const t = this.faceUnder;
    if (stale) {
      copyRegion(t, bg, -head.x, -head.y, stale);
      this.blendUnder(t, null, head.x, head.y, stale);
      this.faceStale = null;
    }
    return t;
  }

  /** The face's changing parts for this pose, the logo, then the caption (whole-frame coordinates). */
  private blendOver(target: Target, p: Placement | null, clip: Box): void {
    if (p) {
      for (const part of [p.eyes, p.mouth]) {
        const s = this.moving(part, p.px, p.py);
        if (s) blendSprite(target, s, p.ex, p.ey, clip);
      }
    }
    if (this.logo) blendSprite(target, this.logo, 0, 0, clip);
    if (this.caption) blendSprite(target, this.caption, 0, 0, clip);
  }

  /** Background and body over the whole frame (what is under the caption, outside the head's region). */
  private still(bg: Target): Target {
    if (!this.stillFrame) {
      const { width, height } = this;
      const t = { width, height, y: bg.y.slice(), u: bg.u.slice(), v: bg.v.slice() };
      if (this.torso) blendSprite(t, this.torso, 0, 0);
      this.stillFrame = t;
    }
    return this.stillFrame;
  }

  /** The head's region with the layers under the face composed for a placement (cached: the idle motion reuses a few). */
  private under(p: Placement, head: PixelRect, bg: Target): Target {
    const key = `${p.ex}:${p.ey}:${p.px}:${p.py}`;
    let t = this.unders.get(key);
    if (!t) {
      const { width, height } = head;
      t = { width, height, y: new Uint8Array(width * height), u: new Uint8Array((width * height) >> 2), v: new Uint8Array((width * height) >> 2) };
      const all = { x0: 0, y0: 0, x1: width, y1: height };
      copyRegion(t, bg, -head.x, -head.y, all);
      this.blendUnder(t, p, head.x, head.y, all);
      if (this.unders.size >= 64) this.unders.clear(); // idle motion stays within a few pixels; this never fills up
      this.unders.set(key, t);
    }
    return t;
  }

  /** How many moving-layer sprites have been cut so far (four phases per Skia draw of a layer). */
  get spriteCount(): number {
    return this.sprites.size;
  }

  /**
   * Cuts every moving layer in both pixel phases on both axes now (what a render of any length
   * ends up using), so the presenter's art can be let go for the rest of the render.
   */
  cutAll(): void {
    if (this.redraw) return; // drawn again per pose: nothing to cut, the canvas stays
    for (const part of PRESENTER_PARTS) if (part !== 'body' && !this.sprites.has(`${part}:0:0`)) this.cutPart(part);
    this.allCut = true;
    this.cutCanvas = null;
    this.cutCtx = null;
  }

  private moving(part: PresenterPart, px: number, py: number): Sprite | null {
    const key = `${part}:${px}:${py}`;
    if (!this.sprites.has(key)) {
      if (this.allCut) throw new Error(`No sprite was cut for ${key}.`);
      this.cutPart(part);
    }
    return this.sprites.get(key) ?? null;
  }

  /** Cuts a layer in its four pixel phases with one Skia draw: a phase is the same pixels one whole pixel over. */
  private cutPart(part: PresenterPart): void {
    const { cutCtx: ctx, cutCanvas: canvas, head } = this;
    const rgba = ctx && canvas && head ? words(this.drawPart(ctx, canvas, head, part)) : null;
    const painted = rgba && head ? paintedBox(rgba, head.width, head.height) : null;
    for (const px of [0, 1]) {
      for (const py of [0, 1]) {
        let s: Sprite | null = null;
        if (rgba && painted && head) {
          // Only a window around the painted pixels is shifted and cut (mouths and eyes are a
          // small part of the head's region): even-edged, one pixel wider for the shift, so
          // spriteFromRgba finds the very box it would find in the whole shifted region.
          const { width: W, height: H } = head;
          const x0 = painted.x0 & ~1;
          const y0 = painted.y0 & ~1;
          const x1 = Math.min(W, (painted.x1 + 2) & ~1);
          const y1 = Math.min(H, (painted.y1 + 2) & ~1);
          const w = x1 - x0;
          const win = new Int32Array(w * (y1 - y0));
          for (let j = Math.max(y0, py); j < y1; j++) {
            const from = Math.max(x0, px); // the shift leaves column 0 empty in phase px = 1
            win.set(rgba.subarray((j - py) * W + from - px, (j - py) * W + x1 - px), (j - y0) * w + from - x0);
          }
          s = spriteFromRgba(new Uint8Array(win.buffer), w, y1 - y0, head.x + x0, head.y + y0);
        }
        this.sprites.set(`${part}:${px}:${py}`, s);
      }
    }
  }

  private drawPart(ctx: Ctx, canvas: Canvas, head: PixelRect, part: PresenterPart): Uint8Array {
    const box = this.layout.presenter;
    ctx.clearRect(0, 0, head.width, head.height);
    ctx.drawImage(this.assets!.parts[part] as Canvas, box.x - head.x, box.y - head.y, box.width, box.height);
    return canvas.data();
  }
}
