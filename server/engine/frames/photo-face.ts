// The photo rig's moving region as a YUV sprite, drawn straight in YUV: the still picture is
// converted to YUVA words once, and each pose is the shared warp (face-warp.ts, which samples
// any four channels alike) over those words, the inner mouth painted over them by the shared
// routine (inner-mouth.ts) in its colours as YUV, then the changed box unpacked into the
// sprite's planes. No Skia draw, read-back or colour conversion of the region per frame: what
// that costs is what limits a photo presenter's render.
import { stillBox, warpRegion, type PixelBox } from '../../../shared/scene/face-warp.js';
import { MESH_POINTS } from '../../../shared/scene/face-mesh.js';
import { mouthColours } from '../../../shared/scene/inner-mouth.js';
import type { PhotoFace } from '../../../shared/scene/photo-rig.js';
import type { PresenterPose, Rect } from '../../../shared/scene/index.js';
import type { PixelRect } from './regions.js';
import { allocSprite, updateRunsOf, type Sprite } from './sprites.js';
import { chromaU, chromaV, luma, unionBox, type Box } from './yuv.js';

/** The inner mouth's colours as YUV words. */
const YUVA_MOUTH = mouthColours(([r, g, b]) => luma(r, g, b) | (chromaU(r, g, b) << 8) | (chromaV(r, g, b) << 16));

/** Straight RGBA words to straight YUVA words (y | u << 8 | v << 16 | a << 24), BT.601 limited range (yuv.ts). */
export function rgbaToYuvaWords(rgba: Int32Array): Int32Array {
  const out = new Int32Array(rgba.length);
  for (let i = 0; i < rgba.length; i++) {
    const w = rgba[i]!;
    const r = w & 255;
    const g = (w >>> 8) & 255;
    const b = (w >>> 16) & 255;
    out[i] = luma(r, g, b) | (chromaU(r, g, b) << 8) | (chromaV(r, g, b) << 16) | (w & 0xff000000);
  }
  return out;
}

export class PhotoFaceSprite {
  /** The region's sprite (the head region of the frame), refilled where each pose changes it. */
  readonly sprite: Sprite;
  private readonly still: Int32Array;
  /** The head region in still-picture pixels. */
  private readonly box: Rect;
  /** The region's pixels warped to the last pose, and those with the inner mouth (YUVA words, box-sized). */
  private readonly warped: Int32Array;
  private readonly out: Int32Array;
  /** The points `warped` was drawn with (when `hasDrawn`; else the next pose is drawn whole). */
  private readonly drawn: Float64Array;
  private hasDrawn = false;
  /** The inner mouth's box last painted (box pixels). */
  private mouthWas: PixelBox | null = null;

  /** How far the head's farthest fully moving point (a mesh point) is from the pivot it rolls about, in pixels. */
  readonly reach: number;

  constructor(private readonly face: PhotoFace, head: PixelRect) {
    const { rest, pivot } = face.rig;
    let reach = 1;
    for (let v = 0; v < MESH_POINTS; v++) reach = Math.max(reach, Math.hypot(rest[2 * v]! - pivot[0], rest[2 * v + 1]! - pivot[1]));
    this.reach = reach;
    this.still = rgbaToYuvaWords(face.still);
    this.box = { x: head.x - face.x, y: head.y - face.y, width: head.width, height: head.height };
    const still = new Int32Array(head.width * head.height);
    stillBox(this.still, face.width, face.height, this.box, still);
    this.drawn = new Float64Array(face.rig.rest.length);
    this.warped = still.slice();
    this.out = still;
    this.sprite = allocSprite(head.x, head.y, head.width, head.height);
    this.unpack({ x0: 0, y0: 0, x1: head.width, y1: head.height });
  }

  /**
   * Draws a pose; returns the box that changed (sprite pixels, even edges), or null when nothing
   * did. Over the last pose drawn only the triangles that moved since are drawn again (a new
   * mouth shape under the same head position redraws the mouth and jaw alone).
   */
  draw(pose: PresenterPose): Box | null {
    const { face, box, warped, out } = this;
    const bw = box.width;
    const moved = face.pose(pose);
    let changed = warpRegion(face.rig, moved, this.still, face.width, face.height, warped, box, this.hasDrawn ? this.drawn : null);
    this.drawn.set(moved);
    this.hasDrawn = true;
    const m = face.mouthBox(moved);
    const mouth = m && { x0: m.x - box.x, y0: m.y - box.y, x1: m.x + m.width - box.x, y1: m.y + m.height - box.y };
    // The mouth painted last time is gone where the warp changed nothing: its box is redone too.
    changed = unionBox(unionBox(changed, this.mouthWas), mouth);
    this.mouthWas = mouth;
    if (!changed) return null;
    // Even edges (chroma blocks), inside the region.
    const c: Box = {
      x0: Math.max(0, changed.x0 & ~1) | 0, y0: Math.max(0, changed.y0 & ~1) | 0,
      x1: Math.min(bw, (changed.x1 + 1) & ~1) | 0, y1: Math.min(box.height, (changed.y1 + 1) & ~1) | 0,
    };
    if (c.x1 <= c.x0 || c.y1 <= c.y0) return null;
    for (let j = c.y0; j < c.y1; j++) out.set(warped.subarray(j * bw + c.x0, j * bw + c.x1), j * bw + c.x0);
    if (m) face.paintMouth(out, bw, box.height, box.x, box.y, moved, YUVA_MOUTH);
    this.unpack(c);
    return c;
  }

  /** Forgets the last pose drawn: the next is drawn whole over the still picture (the head moved). */
  restart(): void {
    this.hasDrawn = false;
  }

  /**
   * The region's words inside `c` (even edges) into the sprite's planes: luma and alpha per pixel,
   * chroma per 2×2 block weighted by alpha; one pass over each block's four words.
   */
  private unpack(c: Box): void {
    const s = this.sprite;
    const w = s.width;
    const cw = w >> 1;
    const p = this.out;
    const { y0: Y, a: A, u: U, v: V, ca: CA } = s;
    // Whole numbers as V8 keeps them (see PixelRect): the boxes come from Math.floor and friends.
    const x0 = c.x0 | 0;
    const x1 = c.x1 | 0;
    const y0 = c.y0 | 0;
    const y1 = c.y1 | 0;
    // Block rows whose alpha changes need their runs again (an opaque face's never do): the first
    // and last (-1: none), kept by plain assignments, as the branch is rare.
    let first = -1;
    let last = -1;
    for (let cj = y0 >> 1; cj < y1 >> 1; cj++) {
      let changed = false;
      let i0 = 2 * cj * w + x0;
      for (let o = cj * cw + (x0 >> 1), end = cj * cw + (x1 >> 1); o < end; o++, i0 += 2) {
        const i2 = i0 + w;
        const w0 = p[i0]!;
        const w1 = p[i0 + 1]!;
        const w2 = p[i2]!;
        const w3 = p[i2 + 1]!;
        Y[i0] = w0 & 255;
        Y[i0 + 1] = w1 & 255;
        Y[i2] = w2 & 255;
        Y[i2 + 1] = w3 & 255;
        if ((w0 & w1 & w2 & w3) >>> 24 === 255) {
          // Opaque (the face inside a card, most of a cut-out's).
          if ((A[i0]! & A[i0 + 1]! & A[i2]! & A[i2 + 1]! & CA[o]!) !== 255) {
            A[i0] = A[i0 + 1] = A[i2] = A[i2 + 1] = CA[o] = 255;
            changed = true;
          }
          U[o] = (((w0 >>> 8) & 255) + ((w1 >>> 8) & 255) + ((w2 >>> 8) & 255) + ((w3 >>> 8) & 255) + 2) >> 2;
          V[o] = (((w0 >>> 16) & 255) + ((w1 >>> 16) & 255) + ((w2 >>> 16) & 255) + ((w3 >>> 16) & 255) + 2) >> 2;
          continue;
        }
        const a0 = w0 >>> 24;
        const a1 = w1 >>> 24;
        const a2 = w2 >>> 24;
        const a3 = w3 >>> 24;
        const as = a0 + a1 + a2 + a3;
        const ca = (as + 2) >> 2;
        if (A[i0] !== a0 || A[i0 + 1] !== a1 || A[i2] !== a2 || A[i2 + 1] !== a3 || CA[o] !== ca) {
          A[i0] = a0;
          A[i0 + 1] = a1;
          A[i2] = a2;
          A[i2 + 1] = a3;
          CA[o] = ca;
          changed = true;
        }
        if (as === 0) {
          U[o] = 128;
          V[o] = 128;
        } else {
          U[o] = ((((w0 >>> 8) & 255) * a0 + ((w1 >>> 8) & 255) * a1 + ((w2 >>> 8) & 255) * a2 + ((w3 >>> 8) & 255) * a3) / as + 0.5) | 0;
          V[o] = ((((w0 >>> 16) & 255) * a0 + ((w1 >>> 16) & 255) * a1 + ((w2 >>> 16) & 255) * a2 + ((w3 >>> 16) & 255) * a3) / as + 0.5) | 0;
        }
      }
      if (changed) {
        if (first < 0) first = cj;
        last = cj;
      }
    }
    if (first >= 0) updateRunsOf(s, { x0, y0: 2 * first, x1, y1: 2 * last + 2 });
  }
}
