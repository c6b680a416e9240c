// The photo rig's inner mouth where the lips part: a dark cavity, the upper teeth's edge, a hint
// of the lower teeth and the tongue, all inside the lips' inner edge. Painted straight onto the
// warped region's pixels (32-bit words of any four channels, as face-warp.ts), anti-aliased by
// coverage of our own: no canvas, so the preview (RGBA) and the engine (YUVA) paint the same
// shapes with the same arithmetic, the colours given in the pixels' own channels.
import { LIP_BOTTOM, LIP_TOP } from './face-mesh.js';
import { MOUTH_PATH, type FaceRig } from './face-warp.js';
import type { Rect } from './types.js';

/** The inner mouth's colours (sRGB): the cavity, the teeth, the tongue. */
export const INNER_MOUTH_RGB = { cavity: [0x2a, 0x0f, 0x0d], teeth: [232, 226, 214], tongue: [150, 62, 58] } as const;
/** The colours as pixel words (channels 0–2; the caller's conversion of INNER_MOUTH_RGB). */
export interface MouthColours {
  cavity: number;
  teeth: number;
  tongue: number;
}
/** The colours as RGBA words (the preview's canvas pixels). */
export const RGBA_MOUTH: MouthColours = {
  cavity: rgbWord(INNER_MOUTH_RGB.cavity),
  teeth: rgbWord(INNER_MOUTH_RGB.teeth),
  tongue: rgbWord(INNER_MOUTH_RGB.tongue),
};
/** How opaque the upper teeth, the lower teeth and the tongue are. */
const TEETH_ALPHA = 0.88;
const LOWER_TEETH_ALPHA = 0.88 * 0.45;
const TONGUE_ALPHA = 0.55;
/** The lips part at least this far before the inside of the mouth shows. */
const MIN_GAP = 0.8;
/** Coverage samples per pixel row (each row sample's span is covered exactly across). */
const SUB = 4;
/** Points on the tongue's outline. */
const TONGUE_POINTS = 32;
const LOWER_INNER = [308, 324, 318, 402, 317, 14, 87, 178, 88, 95, 78] as const;

function rgbWord(c: readonly [number, number, number]): number {
  return c[0] | (c[1] << 8) | (c[2] << 16);
}

/** How far the lips part at their middle (pixels along the face's down axis). */
function lipGap(face: FaceRig, moved: Float64Array): number {
  const { uy } = face;
  return (moved[2 * LIP_BOTTOM]! - moved[2 * LIP_TOP]!) * uy[0] + (moved[2 * LIP_BOTTOM + 1]! - moved[2 * LIP_TOP + 1]!) * uy[1];
}

/** The box the inner mouth paints in (still picture pixels, whole, a pixel wider for its edge), or null when it paints nothing. */
export function innerMouthBox(face: FaceRig, moved: Float64Array): Rect | null {
  if (lipGap(face, moved) < MIN_GAP) return null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const i of MOUTH_PATH) {
    x0 = Math.min(x0, moved[2 * i]!);
    y0 = Math.min(y0, moved[2 * i + 1]!);
    x1 = Math.max(x1, moved[2 * i]!);
    y1 = Math.max(y1, moved[2 * i + 1]!);
  }
  const x = Math.floor(x0) - 2;
  const y = Math.floor(y0) - 2;
  return { x, y, width: Math.ceil(x1) + 2 - x, height: Math.ceil(y1) + 2 - y };
}

/** Coverage buffers, grown as needed (a mouth is a few hundred to a few thousand pixels). */
let scratch = new Float32Array(0);

/**
 * Paints the inner mouth for moved points onto `out`: `width` × `height` straight words whose
 * pixel (0, 0) is the still picture's (ox, oy). Returns the box painted (out's pixels), or null.
 */
export function paintInnerMouth(out: Int32Array, width: number, height: number, ox: number, oy: number, face: FaceRig, moved: Float64Array, colours: MouthColours): Rect | null {
  const m = innerMouthBox(face, moved);
  if (!m) return null;
  // The mouth's box in out's pixels, inside out.
  const bx0 = Math.max(0, m.x - ox);
  const by0 = Math.max(0, m.y - oy);
  const bx1 = Math.min(width, m.x + m.width - ox);
  const by1 = Math.min(height, m.y + m.height - oy);
  if (bx1 <= bx0 || by1 <= by0) return null;
  const w = bx1 - bx0;
  const h = by1 - by0;
  const n = w * h;
  if (scratch.length < 4 * n) scratch = new Float32Array(4 * n);
  const mouth = scratch.subarray(0, n).fill(0);
  const upper = scratch.subarray(n, 2 * n).fill(0);
  const lower = scratch.subarray(2 * n, 3 * n).fill(0);
  const tongue = scratch.subarray(3 * n, 4 * n).fill(0);
  // Shapes in the box's pixels.
  const X = ox + bx0;
  const Y = oy + by0;
  const { ux, uy } = face;
  const ptsOf = (ids: readonly number[]) => ids.flatMap((i) => [moved[2 * i]! - X, moved[2 * i + 1]! - Y]);
  const gap = lipGap(face, moved);
  cover(ptsOf(MOUTH_PATH), w, h, mouth);
  // Teeth: a band under the upper lip, and a thinner, dimmer one over the lower lip.
  const teeth = Math.min(gap * 0.24, face.mouth.halfWidth * 0.13);
  const band = (ids: readonly number[], depth: number) => {
    const edge = ptsOf(ids);
    const pts = edge.slice();
    for (let k = ids.length - 1; k >= 0; k--) pts.push(edge[2 * k]! + uy[0] * depth, edge[2 * k + 1]! + uy[1] * depth);
    return pts;
  };
  cover(band(MOUTH_PATH.slice(2, 9), teeth), w, h, upper);
  cover(band(LOWER_INNER.slice(2, -2), -teeth * 0.55), w, h, lower);
  // The tongue, low in the mouth: an ellipse along the face's axes.
  const cx = (moved[2 * LIP_TOP]! + moved[2 * LIP_BOTTOM]!) / 2 - X + uy[0] * gap * 0.42;
  const cy = (moved[2 * LIP_TOP + 1]! + moved[2 * LIP_BOTTOM + 1]!) / 2 - Y + uy[1] * gap * 0.42;
  const rx = face.mouth.halfWidth * 0.55;
  const ry = gap * 0.3;
  const ellipse: number[] = [];
  for (let k = 0; k < TONGUE_POINTS; k++) {
    const t = (2 * Math.PI * k) / TONGUE_POINTS;
    const a = rx * Math.cos(t);
    const b = ry * Math.sin(t);
    ellipse.push(cx + a * ux[0] + b * uy[0], cy + a * ux[1] + b * uy[1]);
  }
  cover(ellipse, w, h, tongue);

  // Per channel: the layers over the cavity, then the whole over the pixel by the mouth's coverage.
  const ch = (word: number, s: number) => (word >>> s) & 255;
  const { cavity: D, teeth: T, tongue: G } = colours;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const k = j * w + i;
      const cm = Math.min(1, mouth[k]!);
      if (cm <= 0) continue;
      const tu = TEETH_ALPHA * Math.min(1, upper[k]!);
      const tl = LOWER_TEETH_ALPHA * Math.min(1, lower[k]!);
      const tg = TONGUE_ALPHA * Math.min(1, tongue[k]!);
      const o = (by0 + j) * width + bx0 + i;
      const p = out[o]!;
      const wa = ((p >>> 24) / 255) * (1 - cm);
      const oa = cm + wa;
      let word = 0;
      for (let s = 0; s < 24; s += 8) {
        let c = ch(D, s);
        c += (ch(T, s) - c) * tu;
        c += (ch(T, s) - c) * tl;
        c += (ch(G, s) - c) * tg;
        word |= (((c * cm + ch(p, s) * wa) / oa + 0.5) | 0) << s;
      }
      out[o] = word | (Math.round(oa * 255) << 24);
    }
  }
  return { x: bx0, y: by0, width: w, height: h };
}

/** Adds a closed polygon's coverage (x, y pairs, box pixels) to `cov` (w × h): SUB rows of samples per pixel, each span exact across. */
function cover(pts: readonly number[], w: number, h: number, cov: Float32Array): void {
  const n = pts.length / 2;
  let top = Infinity;
  let bottom = -Infinity;
  for (let k = 0; k < n; k++) {
    top = Math.min(top, pts[2 * k + 1]!);
    bottom = Math.max(bottom, pts[2 * k + 1]!);
  }
  const xs: number[] = [];
  for (let j = Math.max(0, Math.floor(top)); j <= Math.min(h - 1, Math.floor(bottom)); j++) {
    for (let s = 0; s < SUB; s++) {
      const y = j + (s + 0.5) / SUB;
      xs.length = 0;
      for (let k = 0; k < n; k++) {
        const ax = pts[2 * k]!;
        const ay = pts[2 * k + 1]!;
        const q = k + 1 < n ? k + 1 : 0;
        const bx = pts[2 * q]!;
        const by = pts[2 * q + 1]!;
        if (ay <= y !== by <= y) xs.push(ax + ((y - ay) * (bx - ax)) / (by - ay));
      }
      xs.sort((a, b) => a - b);
      for (let q = 0; q + 1 < xs.length; q += 2) addSpan(cov, j * w, w, xs[q]!, xs[q + 1]!);
    }
  }
}

/** One sample row's span [xa, xb) into a row of coverage. */
function addSpan(cov: Float32Array, row: number, w: number, xa: number, xb: number): void {
  const a = Math.max(0, xa);
  const b = Math.min(w, xb);
  if (b <= a) return;
  const ia = Math.floor(a);
  const ib = Math.floor(b);
  const k = 1 / SUB;
  if (ia === ib) {
    cov[row + ia]! += (b - a) * k;
    return;
  }
  cov[row + ia]! += (ia + 1 - a) * k;
  for (let i = ia + 1; i < ib; i++) cov[row + i]! += k;
  if (ib < w) cov[row + ib]! += (b - ib) * k;
}
