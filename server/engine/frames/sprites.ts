// Presenter layers as YUV sprites, composed per frame without Skia. Each layer (hair behind the
// body, body, head, eyes, mouth) is rasterised by Skia once per sub-pixel phase and converted to
// yuva420p once; a frame is then the background region copied and the sprites blended on top at
// even offsets. Opaque runs are plain copies, so a frame costs a few memcpys plus the
// anti-aliased edges, instead of a Skia draw, a read-back and a full colour conversion.
import { rgbaToYuva, words, type Box } from './yuv.js';

/** A layer in yuva420p over its painted box, with per-row runs of painted pixels. */
export interface Sprite {
  /** Top-left in frame pixels for an offset of (0, 0); both even, as are width and height. */
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

/** Painted runs per row: row j's runs are triples (x0, x1, opaque) in rows[j]. */
type Runs = Int32Array[];

const NO_RUNS = new Int32Array(0);
let scratch = new Int32Array(4096);

/** Appends a run to scratch (n entries so far), joined to the one before when it continues it; returns the new count. */
function pushRun(n: number, x0: number, x1: number, flag: number): number {
  if (n && scratch[n - 2] === x0 && scratch[n - 1] === flag) {
    scratch[n - 2] = x1;
    return n;
  }
  scratch[n] = x0;
  scratch[n + 1] = x1;
  scratch[n + 2] = flag;
  return n + 3;
}

/**
 * Recomputes the runs of rows j0..j1 of an alpha plane whose pixels changed only in columns
 * x0..x1: the runs outside are kept (cut at the columns' edges and joined again to what
 * continues them), so a changed word of a wide caption costs its own width, not the row's.
 */
function updateRuns(runs: Runs, alpha: Uint8Array, width: number, j0: number, j1: number, x0 = 0, x1 = width): void {
  if (scratch.length < width * 3) scratch = new Int32Array(width * 3);
  for (let j = j0; j < j1; j++) {
    const row = j * width;
    const was = runs[j]!;
    let n = 0;
    for (let k = 0; k < was.length && was[k]! < x0; k += 3) n = pushRun(n, was[k]!, Math.min(was[k + 1]!, x0), was[k + 2]!);
    let x = x0;
    while (x < x1) {
      const al = alpha[row + x]!;
      if (al === 0) {
        x++;
        continue;
      }
      const opaque = al === 255;
      const start = x;
      while (x < x1 && alpha[row + x] !== 0 && (alpha[row + x] === 255) === opaque) x++;
      n = pushRun(n, start, x, opaque ? 1 : 0);
    }
    for (let k = 0; k < was.length; k += 3) if (was[k + 1]! > x1) n = pushRun(n, Math.max(was[k]!, x1), was[k + 1]!, was[k + 2]!);
    // A row redrawn with the same runs (an opaque face redrawn every frame) keeps its array.
    let same = was.length === n;
    for (let k = 0; same && k < n; k++) same = was[k] === scratch[k];
    if (!same) runs[j] = n ? scratch.slice(0, n) : NO_RUNS;
  }
}

/** A transparent sprite of the given box, to be filled by updateSprite. */
export function allocSprite(x: number, y: number, width: number, height: number): Sprite {
  const c = (width >> 1) * (height >> 1);
  return {
    x, y, width, height, y0: new Uint8Array(width * height), a: new Uint8Array(width * height), u: new Uint8Array(c), v: new Uint8Array(c),
    ca: new Uint8Array(c), luma: new Array<Int32Array>(height).fill(NO_RUNS), chroma: new Array<Int32Array>(height >> 1).fill(NO_RUNS),
  };
}

/** Converts premultiplied RGBA of the sprite's size into it, only inside `box` when given (sprite pixels, even edges). */
export function updateSprite(s: Sprite, px: Uint8Array, box?: Box): void {
  const { width: w, height: h } = s;
  const b = box ?? { x0: 0, y0: 0, x1: w, y1: h };
  rgbaToYuva(px, w, h, { width: w, height: h, y: s.y0, a: s.a, u: s.u, v: s.v, ca: s.ca }, b);
  updateRunsOf(s, b);
}

/** Recomputes the sprite's painted runs of the rows of `b` (sprite pixels, even edges) after its planes changed inside `b` only. */
export function updateRunsOf(s: Sprite, b: Box): void {
  updateRuns(s.luma, s.a, s.width, b.y0, b.y1, b.x0, b.x1);
  updateRuns(s.chroma, s.ca, s.width >> 1, b.y0 >> 1, b.y1 >> 1, b.x0 >> 1, b.x1 >> 1);
}

/** Never written: a transparent row. */
let zeroRow = Buffer.alloc(0);

/**
 * The even-edged boxes of pixels that differ between two RGBA images of the same size (`prev`
 * null: a transparent image), one per band of changed rows; empty when nothing changed. A
 * caption's next word changes two words' boxes, on one line or on two: not the whole plate.
 */
export function changedBoxes(prevOrNull: Int32Array | null, next: Int32Array, width: number, height: number): Box[] {
  return changedBoxesIn(prevOrNull, width, next, width, width, height);
}

/**
 * changedBoxes of the `width` × `height` pixels at the top-left of two images whose rows are
 * `prevStride` and `nextStride` pixels apart (views may start anywhere, e.g. a region's corner).
 */
export function changedBoxesIn(prevOrNull: Int32Array | null, prevStride: number, next: Int32Array, nextStride: number, width: number, height: number): Box[] {
  if (zeroRow.length < width * 4) zeroRow = Buffer.alloc(width * 4);
  // Rows are compared natively (memcmp) first: most rows of a caption or a layer are unchanged.
  const nb = Buffer.from(next.buffer, next.byteOffset, next.byteLength);
  const pb = prevOrNull ? Buffer.from(prevOrNull.buffer, prevOrNull.byteOffset, prevOrNull.byteLength) : null;
  const same = (j: number) =>
    (pb
      ? nb.compare(pb, j * prevStride * 4, (j * prevStride + width) * 4, j * nextStride * 4, (j * nextStride + width) * 4)
      : nb.compare(zeroRow, 0, width * 4, j * nextStride * 4, (j * nextStride + width) * 4)) === 0;
  const boxes: Box[] = [];
  let band: Box | null = null;
  const close = () => {
    if (!band) return;
    const b: Box = band;
    boxes.push({ x0: b.x0 & ~1, y0: b.y0 & ~1, x1: Math.min(width, (b.x1 + 1) & ~1), y1: Math.min(height, (b.y1 + 1) & ~1) });
    band = null;
  };
  for (let j = 0; j < height; j++) {
    if (same(j)) {
      // A band ends at an unchanged pair of rows (a single one may sit inside a 2-row chroma block).
      if (band && j >= (band as Box).y1 + 1) close();
      continue;
    }
    const row = j * nextStride;
    let l = 0;
    let r = width - 1;
    if (prevOrNull) {
      const prow = j * prevStride;
      while (prevOrNull[prow + l] === next[row + l]) l++;
      while (prevOrNull[prow + r] === next[row + r]) r--;
    } else {
      while (next[row + l] === 0) l++;
      while (next[row + r] === 0) r--;
    }
    if (!band) band = { x0: l, y0: j, x1: r + 1, y1: j + 1 };
    else band = { x0: Math.min(band.x0, l), y0: band.y0, x1: Math.max(band.x1, r + 1), y1: j + 1 };
  }
  close();
  // Rounding to even rows may make neighbours touch: merge those, so no row is converted twice.
  const merged: Box[] = [];
  for (const b of boxes) {
    const m = merged[merged.length - 1];
    if (m && b.y0 < m.y1) merged[merged.length - 1] = { x0: Math.min(m.x0, b.x0), y0: m.y0, x1: Math.max(m.x1, b.x1), y1: Math.max(m.y1, b.y1) };
    else merged.push(b);
  }
  return merged;
}

/** The one even-edged box around every changed pixel (see changedBoxes), or null. */
export function changedBox(prev: Int32Array | null, next: Int32Array, width: number, height: number): Box | null {
  const boxes = changedBoxes(prev, next, width, height);
  if (!boxes.length) return null;
  return boxes.reduce((a, b) => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) }));
}

/**
 * Cuts a sprite from premultiplied RGBA of a region (even width and height) whose top-left is
 * at (originX, originY) in the frame (both even): only the painted box, widened to even bounds
 * so chroma blocks line up with the frame's. Null when nothing is painted.
 */
export function spriteFromRgba(px: Uint8Array, width: number, height: number, originX = 0, originY = 0): Sprite | null {
  const box = changedBox(null, words(px), width, height);
  if (!box) return null;
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  const crop = new Uint8Array(w * h * 4);
  for (let j = 0; j < h; j++) crop.set(px.subarray(((box.y0 + j) * width + box.x0) * 4, ((box.y0 + j) * width + box.x1) * 4), j * w * 4);
  const s = allocSprite(originX + box.x0, originY + box.y0, w, h);
  updateSprite(s, crop);
  return s;
}

/** Opaque yuv420p planes (a whole frame, or a region): what sprites are blended onto. */
export interface Target {
  width: number;
  height: number;
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

function blendPlane(
  dst: Uint8Array, dw: number, src: Uint8Array, alpha: Uint8Array, sw: number, rowRuns: Runs, ox: number, oy: number, c: Box,
): void {
  const rows = rowRuns.length;
  const j0 = Math.max(0, c.y0 - oy);
  const j1 = Math.min(rows, c.y1 - oy);
  const lo = c.x0 - ox;
  const hi = c.x1 - ox;
  for (let j = j0; j < j1; j++) {
    const srow = j * sw;
    const drow = (oy + j) * dw + ox;
    const runs = rowRuns[j]!;
    for (let r = 0; r < runs.length; r += 3) {
      const a0 = Math.max(runs[r]!, lo);
      const a1 = Math.min(runs[r + 1]!, hi);
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

/** Blends a sprite onto the target, moved by (ox, oy) pixels (both even), inside `clip` (default: all of it). */
export function blendSprite(t: Target, s: Sprite, ox: number, oy: number, clip?: Box): void {
  const c = clip ?? { x0: 0, y0: 0, x1: t.width, y1: t.height };
  const x = s.x + ox;
  const y = s.y + oy;
  blendPlane(t.y, t.width, s.y0, s.a, s.width, s.luma, x, y, c);
  const cc = { x0: c.x0 >> 1, y0: c.y0 >> 1, x1: c.x1 >> 1, y1: c.y1 >> 1 };
  const cw = t.width >> 1;
  blendPlane(t.u, cw, s.u, s.ca, s.width >> 1, s.chroma, x >> 1, y >> 1, cc);
  blendPlane(t.v, cw, s.v, s.ca, s.width >> 1, s.chroma, x >> 1, y >> 1, cc);
}

/** Copies the planes of `src` (same size as `dst`) inside the clip rectangle. */
export function copyClip(dst: Target, src: Target, c: Box): void {
  const w = dst.width;
  for (let j = c.y0; j < c.y1; j++) dst.y.set(src.y.subarray(j * w + c.x0, j * w + c.x1), j * w + c.x0);
  const cw = w >> 1;
  for (let j = c.y0 >> 1; j < c.y1 >> 1; j++) {
    const a = j * cw + (c.x0 >> 1);
    const b = j * cw + (c.x1 >> 1);
    dst.u.set(src.u.subarray(a, b), a);
    dst.v.set(src.v.subarray(a, b), a);
  }
}

/**
 * Copies `src`, whose top-left sits at (sx, sy) in `dst` (both even), into `dst` inside the
 * clip rectangle (dst coordinates, inside both).
 */
export function copyRegion(dst: Target, src: Target, sx: number, sy: number, c: Box): void {
  const dw = dst.width;
  const sw = src.width;
  for (let j = c.y0; j < c.y1; j++) {
    const s = (j - sy) * sw - sx;
    dst.y.set(src.y.subarray(s + c.x0, s + c.x1), j * dw + c.x0);
  }
  const dcw = dw >> 1;
  const scw = sw >> 1;
  for (let j = c.y0 >> 1; j < c.y1 >> 1; j++) {
    const s = (j - (sy >> 1)) * scw - (sx >> 1);
    const d = j * dcw;
    dst.u.set(src.u.subarray(s + (c.x0 >> 1), s + (c.x1 >> 1)), d + (c.x0 >> 1));
    dst.v.set(src.v.subarray(s + (c.x0 >> 1), s + (c.x1 >> 1)), d + (c.x0 >> 1));
  }
}

/**
 * The yuv420p planes of a frame buffer (Y, then U, then V), as views. Plain Uint8Arrays even for
 * a Buffer (whose subarrays are Buffers): the pixel loops then see one kind of array, and V8 does
 * not throw their optimised code away when the other kind first comes.
 */
export function framePlanes(buf: Uint8Array, width: number, height: number): Target {
  const ys = width * height;
  const cs = (width >> 1) * (height >> 1);
  const view = (at: number, n: number) => new Uint8Array(buf.buffer, buf.byteOffset + at, n);
  return { width, height, y: view(0, ys), u: view(ys, cs), v: view(ys + cs, cs) };
}

/** Byte size of a yuv420p frame. */
export const yuvFrameSize = (w: number, h: number): number => w * h + 2 * (w >> 1) * (h >> 1);

/**
 * Snaps an offset to whole pixels and splits it into an even part (moves a sprite without
 * touching its chroma blocks) and a phase of 0 or 1 (a sprite cut one pixel over).
 */
export function splitOffset(px: number): { even: number; phase: number } {
  const q = Math.round(px) | 0;
  const even = q & ~1;
  return { even, phase: q - even };
}
