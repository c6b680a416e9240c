// Presenter layers as YUV sprites, composed per frame without Skia. Each layer (hair behind the
// body, body, head, eyes, mouth) is rasterised by Skia once per sub-pixel phase and converted to
// yuva420p once; a frame is then the background region copied and the sprites blended on top at
// even offsets. Opaque runs are plain copies, so a frame costs a few memcpys plus the
// anti-aliased edges, instead of a Skia draw, a read-back and a full colour conversion.
import { rgbaToYuva } from './yuv.js';

/** A layer in yuva420p over its painted box, with per-row runs of painted pixels. */
export interface Sprite {
  /** Top-left in region pixels for an offset of (0, 0); both even, as are width and height. */
  x: number;
  y: number;
  width: number;
  height: number;
  y0: Uint8Array;
  a: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
  /** Chroma alpha: the mean of each 2×2 block's alpha (the planes' chroma is alpha-weighted). */
  ca: Uint8Array;
  luma: Runs;
  chroma: Runs;
}

/** Painted runs per row: row j's runs are triples (x0, x1, opaque) in runs[start[j] .. start[j + 1]). */
interface Runs {
  start: Int32Array;
  runs: Int32Array;
}

function runsOf(alpha: Uint8Array, width: number, height: number): Runs {
  const start = new Int32Array(height + 1);
  const out: number[] = [];
  for (let j = 0; j < height; j++) {
    start[j] = out.length;
    const row = j * width;
    let x = 0;
    while (x < width) {
      const al = alpha[row + x]!;
      if (al === 0) {
        x++;
        continue;
      }
      const opaque = al === 255;
      const x0 = x;
      while (x < width && alpha[row + x] !== 0 && (alpha[row + x] === 255) === opaque) x++;
      out.push(x0, x, opaque ? 1 : 0);
    }
  }
  start[height] = out.length;
  return { start, runs: Int32Array.from(out) };
}

/**
 * Cuts a sprite from premultiplied RGBA of a whole region (even width and height): only the
 * painted box, widened to even bounds so chroma blocks line up with the frame's. Null when
 * nothing is painted.
 */
export function spriteFromRgba(px: Uint8Array, width: number, height: number): Sprite | null {
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (let j = 0; j < height; j++) {
    const row = j * width * 4;
    for (let x = 0; x < width; x++) {
      if (px[row + x * 4 + 3] !== 0) {
        if (x < x0) x0 = x;
        if (x >= x1) x1 = x + 1;
        if (j < y0) y0 = j;
        y1 = j + 1;
      }
    }
  }
  if (x1 <= x0) return null;
  x0 &= ~1;
  y0 &= ~1;
  x1 = Math.min(width, (x1 + 1) & ~1);
  y1 = Math.min(height, (y1 + 1) & ~1);
  const w = x1 - x0;
  const h = y1 - y0;
  const crop = new Uint8Array(w * h * 4);
  for (let j = 0; j < h; j++) crop.set(px.subarray(((y0 + j) * width + x0) * 4, ((y0 + j) * width + x1) * 4), j * w * 4);
  const p = rgbaToYuva(crop, w, h);
  const cw = w >> 1;
  const ca = new Uint8Array(cw * (h >> 1));
  for (let cj = 0; cj < h >> 1; cj++) {
    for (let cx = 0; cx < cw; cx++) {
      const i = 2 * cj * w + 2 * cx;
      ca[cj * cw + cx] = (p.a[i]! + p.a[i + 1]! + p.a[i + w]! + p.a[i + w + 1]! + 2) >> 2;
    }
  }
  return { x: x0, y: y0, width: w, height: h, y0: p.y, a: p.a, u: p.u, v: p.v, ca, luma: runsOf(p.a, w, h), chroma: runsOf(ca, cw, h >> 1) };
}

/** Opaque yuv420p planes of a region: the frame a region's sprites are blended onto. */
export interface Target {
  width: number;
  height: number;
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

function blendPlane(
  dst: Uint8Array, dw: number, dh: number, src: Uint8Array, alpha: Uint8Array, sw: number, { start, runs }: Runs, ox: number, oy: number,
): void {
  const rows = start.length - 1;
  for (let j = 0; j < rows; j++) {
    const dy = oy + j;
    if (dy < 0 || dy >= dh) continue;
    const srow = j * sw;
    const drow = dy * dw + ox;
    for (let r = start[j]!; r < start[j + 1]!; r += 3) {
      // Clip the run to the target's columns.
      const a0 = Math.max(runs[r]!, -ox);
      const a1 = Math.min(runs[r + 1]!, dw - ox);
      if (a1 <= a0) continue;
      if (runs[r + 2] === 1) {
        dst.set(src.subarray(srow + a0, srow + a1), drow + a0);
        continue;
      }
      for (let x = a0; x < a1; x++) {
        const al = alpha[srow + x]!;
        const d = drow + x;
        dst[d] = ((src[srow + x]! * al + dst[d]! * (255 - al) + 127) / 255) | 0;
      }
    }
  }
}

/** Blends a sprite onto the target, moved by (ox, oy) pixels; both even. */
export function blendSprite(t: Target, s: Sprite, ox: number, oy: number): void {
  const x = s.x + ox;
  const y = s.y + oy;
  blendPlane(t.y, t.width, t.height, s.y0, s.a, s.width, s.luma, x, y);
  const cw = t.width >> 1;
  const ch = t.height >> 1;
  blendPlane(t.u, cw, ch, s.u, s.ca, s.width >> 1, s.chroma, x >> 1, y >> 1);
  blendPlane(t.v, cw, ch, s.v, s.ca, s.width >> 1, s.chroma, x >> 1, y >> 1);
}

/** Splits an offset in pixels into an even whole part and a phase in half pixels (0, 0.5, 1, 1.5). */
export function splitOffset(px: number): { even: number; phase: number } {
  const q = Math.round(px * 2) / 2;
  const even = Math.floor(q / 2) * 2;
  return { even, phase: q - even };
}
