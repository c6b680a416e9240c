// The photo rig's inner mouth where the lips part: a cavity, the upper teeth, when wide open a
// hint of the lower teeth and the tongue, all inside the lips' inner edge. Painted straight onto
// the warped region's pixels (32-bit words of any four channels, as face-warp.ts), anti-aliased
// by coverage of our own and shaded by mixing pairs of its colours: no canvas, so the preview
// (RGBA) and the engine (YUVA) paint the same shapes with the same arithmetic, the colours given
// in the pixels' own channels.
import { LIP_BOTTOM, LIP_TOP } from './face-mesh.js';
import { MOUTH_PATH, UPPER_INNER, LOWER_INNER, type FaceRig } from './face-warp.js';
import type { Rect } from './types.js';

/**
 * The inner mouth's colours (sRGB): the cavity at its rim and deep inside, the teeth lit and in
 * shade, the tongue. Every shade painted is a mix of two of these, so it is the same in any
 * channels that are an affine map of RGB (YUV).
 */
export const INNER_MOUTH_RGB = {
  rim: [0x5e, 0x22, 0x20], deep: [0x1c, 0x07, 0x08], teeth: [226, 219, 204], teethShade: [128, 104, 96], tongue: [160, 74, 72],
} as const satisfies Record<string, readonly [number, number, number]>;
/** The colours as pixel words (channels 0–2), one per INNER_MOUTH_RGB entry. */
export type MouthColours = Record<keyof typeof INNER_MOUTH_RGB, number>;
/** INNER_MOUTH_RGB through a conversion to the pixels' own channels. */
export function mouthColours(word: (rgb: readonly [number, number, number]) => number): MouthColours {
  const c = INNER_MOUTH_RGB;
  return { rim: word(c.rim), deep: word(c.deep), teeth: word(c.teeth), teethShade: word(c.teethShade), tongue: word(c.tongue) };
}
/** The colours as RGBA words (the preview's canvas pixels). */
export const RGBA_MOUTH: MouthColours = mouthColours((c) => c[0] | (c[1] << 8) | (c[2] << 16));
/** The lips part at least this far before the inside of the mouth shows. */
const MIN_GAP = 0.8;
/** Coverage samples per pixel row (each row sample's span is covered exactly across). */
const SUB = 4;

/** How far the lips part at their middle (pixels along the face's down axis). */
function lipGap(face: FaceRig, moved: Float64Array): number {
  const { uy } = face;
  return (moved[2 * LIP_BOTTOM]! - moved[2 * LIP_TOP]!) * uy[0] + (moved[2 * LIP_BOTTOM + 1]! - moved[2 * LIP_TOP + 1]!) * uy[1];
}

/** The box the inner mouth paints in (still picture pixels, whole, two pixels wider for its soft edge), or null when it paints nothing. */
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

/** Coverage and its blur, grown as needed (a mouth is a few hundred to a few thousand pixels). */
let scratch = new Float32Array(0);

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
function smoothstep(e0: number, e1: number, x: number): number {
  const t = clamp01((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}

/** A lip edge's distance down the face (b) per whole step across it (a), from `a0` on. */
function edgeTable(ids: readonly number[], moved: Float64Array, face: FaceRig, cx: number, cy: number, a0: number, n: number): Float32Array {
  const { ux, uy } = face;
  const pts = ids.map((i) => [(moved[2 * i]! - cx) * ux[0] + (moved[2 * i + 1]! - cy) * ux[1], (moved[2 * i]! - cx) * uy[0] + (moved[2 * i + 1]! - cy) * uy[1]] as const);
  pts.sort((p, r) => p[0] - r[0]);
  const pa = pts.map((p) => p[0]);
  const pb = pts.map((p) => p[1]);
  const t = new Float32Array(n);
  let q = 1;
  for (let k = 0; k < n; k++) {
    const a = a0 + k;
    while (q < pa.length - 1 && pa[q]! < a) q++;
    const f = clamp01((a - pa[q - 1]!) / (pa[q]! - pa[q - 1]! || 1));
    t[k] = pb[q - 1]! + f * (pb[q]! - pb[q - 1]!);
  }
  return t;
}

/**
 * Paints the inner mouth for moved points onto `out`: `width` × `height` straight words whose
 * pixel (0, 0) is the still picture's (ox, oy). Returns the box painted (out's pixels), or null.
 *
 * The opening's coverage is blurred a pixel so its edge and corners are soft and the lips show
 * through it; inside, the cavity darkens from a red-brown rim to its middle. The upper teeth hang
 * from the upper lip, as deep as the jaw has dropped and shallower and shaded towards the
 * corners, lit more away from the lip; the lower teeth and the tongue show only when wide open.
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
  if (scratch.length < 2 * n) scratch = new Float32Array(2 * n);
  const cov = scratch.subarray(0, n).fill(0);
  const tmp = scratch.subarray(n, 2 * n);
  // Shapes in the box's pixels.
  const X = ox + bx0;
  const Y = oy + by0;
  cover(MOUTH_PATH.flatMap((i) => [moved[2 * i]! - X, moved[2 * i + 1]! - Y]), w, h, cov);
  blur121(cov, tmp, w, h);

  // Face coordinates about the lips' middle: a across, b down.
  const { ux, uy } = face;
  const hw = face.mouth.halfWidth;
  const gap = lipGap(face, moved);
  const cx = (moved[2 * LIP_TOP]! + moved[2 * LIP_BOTTOM]!) / 2 - X;
  const cy = (moved[2 * LIP_TOP + 1]! + moved[2 * LIP_BOTTOM + 1]!) / 2 - Y;
  const cornerA = (i: number) => (moved[2 * i]! - X - cx) * ux[0] + (moved[2 * i + 1]! - Y - cy) * ux[1];
  const aL = Math.min(cornerA(UPPER_INNER[0]), cornerA(UPPER_INNER[UPPER_INNER.length - 1]!));
  const aR = Math.max(cornerA(UPPER_INNER[0]), cornerA(UPPER_INNER[UPPER_INNER.length - 1]!));
  const half = Math.max(1, (aR - aL) / 2);
  const mid = (aL + aR) / 2;
  const cols = Math.ceil(aR - aL) + 1;
  const upper = edgeTable(UPPER_INNER, moved, face, cx + X, cy + Y, aL, cols);
  const lower = edgeTable(LOWER_INNER, moved, face, cx + X, cy + Y, aL, cols);
  // The teeth's depth follows the jaw's drop; the lower teeth and the tongue fade in when wide.
  const teethDepth = Math.min(gap * 0.45, hw * 0.19);
  const wide = smoothstep(0.3 * hw, 0.55 * hw, gap);
  const lowerDepth = teethDepth * 0.4 * wide;
  const tongueOn = 0.85 * smoothstep(0.22 * hw, 0.5 * hw, gap);
  const tongueRx = half * 0.62;
  const tongueRy = Math.max(1, gap * 0.45);
  const tongueB = gap * 0.55;
  const tongueEdge = Math.min(tongueRx, tongueRy) * 0.5;

  const ch = (word: number, s: number) => (word >>> s) & 255;
  const { rim: R, deep: D, teeth: T, teethShade: S, tongue: G } = colours;
  for (let j = 0; j < h; j++) {
    const py = j + 0.5 - cy;
    for (let i = 0; i < w; i++) {
      const k = j * w + i;
      if (cov[k]! <= 0) continue;
      const px = i + 0.5 - cx;
      const a = px * ux[0] + py * ux[1];
      const b = px * uy[0] + py * uy[1];
      const col = Math.min(cols - 1, Math.max(0, Math.round(a - aL)));
      const up = upper[col]!;
      const lo = lower[col]!;
      const s = Math.min(1, Math.abs(a - mid) / half);
      // The very corners let the lips through: a pinched corner reads as a soft crease, not a notch.
      const cm = cov[k]! * (1 - 0.45 * smoothstep(0.86, 1, s));
      const v = clamp01((b - up) / Math.max(1, lo - up));
      // The cavity: red-brown at the rim, dark in the middle and in the corners' shadow.
      const centre = (1 - s * s) * (1 - (2 * v - 1) ** 2);
      const rimW = (1 - centre) * (1 - centre) * (1 - 0.6 * smoothstep(0.7, 1, s));
      // The tongue: an ellipse low in the mouth, lit at its top middle.
      const ta = (a - mid) / tongueRx;
      const tb = (b - tongueB) / tongueRy;
      const q = ta * ta + tb * tb;
      const tg = tongueOn > 0 && q < 1 ? tongueOn * clamp01((1 - q) * tongueEdge) : 0;
      // The teeth: shallower towards the corners, lit away from the lip and the corners.
      const across = Math.min(1, Math.abs(a - mid) / (half * 0.9));
      const taper = Math.sqrt(Math.max(0, 1 - across * across * across));
      const depth = teethDepth * taper;
      const tu = depth > 0 ? 0.95 * clamp01(up + depth - b + 0.5) * clamp01(depth) : 0;
      const tl = lowerDepth > 0 ? 0.55 * clamp01(b - (lo - lowerDepth * taper) + 0.5) * clamp01(lowerDepth * taper) : 0;
      const sideShade = 1 - smoothstep(0.35, 1, across);
      const litU = sideShade * (0.7 + 0.3 * smoothstep(0, 0.6, depth > 0 ? (b - up) / depth : 0));
      const litL = 0.45 * sideShade;
      const o = (by0 + j) * width + bx0 + i;
      const p = out[o]!;
      const wa = ((p >>> 24) / 255) * (1 - cm);
      const oa = cm + wa;
      let word = 0;
      for (let sh = 0; sh < 24; sh += 8) {
        const r = ch(R, sh);
        const d = ch(D, sh);
        const t = ch(T, sh);
        const ts = ch(S, sh);
        let c = d + (r - d) * rimW;
        c += (d + (ch(G, sh) - d) * (1 - 0.6 * q) - c) * tg;
        c += (ts + (t - ts) * litL - c) * tl;
        c += (ts + (t - ts) * litU - c) * tu;
        word |= (((c * cm + ch(p, sh) * wa) / oa + 0.5) | 0) << sh;
      }
      out[o] = word | (Math.round(oa * 255) << 24);
    }
  }
  return { x: bx0, y: by0, width: w, height: h };
}

/** Blurs coverage by [1 2 1] / 4 across and down (in place; `tmp` the same size), clamped to 1. */
function blur121(cov: Float32Array, tmp: Float32Array, w: number, h: number): void {
  for (let j = 0; j < h; j++) {
    const r = j * w;
    for (let i = 0; i < w; i++) {
      const l = i > 0 ? cov[r + i - 1]! : 0;
      const rr = i + 1 < w ? cov[r + i + 1]! : 0;
      tmp[r + i] = (l + 2 * Math.min(1, cov[r + i]!) + rr) * 0.25;
    }
  }
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const k = j * w + i;
      const u = j > 0 ? tmp[k - w]! : 0;
      const d = j + 1 < h ? tmp[k + w]! : 0;
      cov[k] = Math.min(1, (u + 2 * tmp[k]! + d) * 0.25);
    }
  }
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
