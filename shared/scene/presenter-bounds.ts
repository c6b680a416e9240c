// Painted bounds of each presenter's art at rest, in art units (viewBox 400×480).
// Written by server/engine/tools/presenter-art.ts when it draws the art; do not edit by hand.
import type { Rect } from './types.js';

export const PRESENTER_BOUNDS: Record<string, Rect> = {
  nora: { x: 0, y: 40, width: 400, height: 440 },
  leo: { x: 0, y: 42, width: 400, height: 438 },
  maya: { x: 0, y: 36, width: 400, height: 444 },
  sam: { x: 0, y: 47, width: 400, height: 433 },
  iris: { x: 0, y: 40, width: 400, height: 440 },
  omar: { x: 0, y: 70, width: 400, height: 410 },
};
