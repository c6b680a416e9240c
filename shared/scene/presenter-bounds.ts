// Painted bounds of each presenter's art at rest, in art units (viewBox 400×480):
// all layers (content) and the layers that move (moving: everything but the torso).
// Written by tools/engine/presenter-art.ts when it draws the art; do not edit by hand.
import type { Rect } from './types.js';

export const PRESENTER_BOUNDS: Record<string, { content: Rect; moving: Rect }> = {
  nora: {
    content: { x: 0, y: 40, width: 400, height: 440 },
    moving: { x: 96, y: 40, width: 208, height: 258 },
  },
  leo: {
    content: { x: 0, y: 42, width: 400, height: 438 },
    moving: { x: 102, y: 42, width: 196, height: 248 },
  },
  maya: {
    content: { x: 0, y: 36, width: 400, height: 444 },
    moving: { x: 70, y: 36, width: 260, height: 354 },
  },
  sam: {
    content: { x: 0, y: 47, width: 400, height: 433 },
    moving: { x: 113, y: 47, width: 174, height: 240 },
  },
  iris: {
    content: { x: 0, y: 40, width: 400, height: 440 },
    moving: { x: 82, y: 40, width: 236, height: 319 },
  },
  omar: {
    content: { x: 0, y: 70, width: 400, height: 410 },
    moving: { x: 113, y: 70, width: 174, height: 220 },
  },
};
