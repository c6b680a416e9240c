// Output frame sizes from the contract: the short side is 720 by default (1080 by configuration).
import type { AspectRatio, Resolution } from './schemas.js';

export type ShortSide = 720 | 1080;

/** A resolution's short side in pixels: the one place a resolution becomes a size. */
export const SHORT_SIDES = { '720p': 720, '1080p': 1080 } as const satisfies Record<Resolution, ShortSide>;

export function outputSize(aspectRatio: AspectRatio, shortSide: ShortSide = 720): { width: number; height: number } {
  const [w, h] = aspectRatio.split(':').map(Number) as [number, number];
  const even = (n: number) => Math.round(n / 2) * 2;
  return w >= h
    ? { width: even((shortSide * w) / h), height: shortSide }
    : { width: shortSide, height: even((shortSide * h) / w) };
}

export const OUTPUT_FPS = 30;
