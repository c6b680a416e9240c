// Measuring a presenter's face in a rendered video, the way a viewer would judge it: how far
// the mouth is open in each frame, whether the eyes are shut, how much of the face moves
// between frames. Any rig's test can use it with its own mouth, eye and face boxes (the vector
// rig's from its art, the photo rig's from its landmarks).
import type { Rect, TimedPhoneme } from '../../../shared/scene/index.js';
import type { Frame } from './media.js';

/** Luma of a pixel of an RGB frame. */
const luma = (f: Frame, x: number, y: number) => {
  const o = (y * f.width + x) * 3;
  return 0.299 * f.rgb[o]! + 0.587 * f.rgb[o + 1]! + 0.114 * f.rgb[o + 2]!;
};

/** How many pixels of `box` have a luma below `dark` (an open mouth's cavity) or above `light` (open eyes' whites). */
export function countPixels(f: Frame, box: Rect, test: (luma: number) => boolean): number {
  let n = 0;
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) if (test(luma(f, x, y))) n++;
  return n;
}

/** Mean absolute luma change inside `box` between two frames. */
export function meanChange(a: Frame, b: Frame, box: Rect): number {
  let sum = 0;
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) sum += Math.abs(luma(a, x, y) - luma(b, x, y));
  return sum / (box.width * box.height);
}

export function pearson(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  const ma = a.slice(0, n).reduce((s, v) => s + v, 0) / n;
  const mb = b.slice(0, n).reduce((s, v) => s + v, 0) / n;
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

/** Blinks per minute: runs of shut frames in a run of frames at `fps`. */
export function blinksPerMinute(shut: readonly boolean[], fps: number): number {
  let blinks = 0;
  shut.forEach((s, i) => {
    if (s && !shut[i - 1]) blinks++;
  });
  return (blinks * 60 * fps) / shut.length;
}

/** The share of p, b and m sounds (at least `minSeconds` long) whose middle frame shows the mouth closed. */
export function closureOnBilabials(phonemes: readonly TimedPhoneme[], closed: readonly boolean[], fps: number, minSeconds = 0.04): { share: number; count: number } {
  const bilabial = phonemes.filter((p) => /^[ˈˌ]?[pbm]/.test(p.phoneme) && p.end - p.start >= minSeconds);
  const hits = bilabial.filter((p) => closed[Math.round(((p.start + p.end) / 2) * fps)] === true).length;
  return { share: bilabial.length ? hits / bilabial.length : NaN, count: bilabial.length };
}

/** The share of consecutive frame pairs in which the face region changes by more than `threshold` (mean luma). */
export function movingPairs(frames: readonly Frame[], face: Rect, threshold = 0.5): number {
  let moving = 0;
  for (let i = 1; i < frames.length; i++) if (meanChange(frames[i - 1]!, frames[i]!, face) > threshold) moving++;
  return moving / Math.max(1, frames.length - 1);
}
