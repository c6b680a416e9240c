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
  amara: {
    content: { x: 0, y: 26, width: 400, height: 454 },
    moving: { x: 78, y: 26, width: 244, height: 261 },
  },
  kenji: {
    content: { x: 0, y: 80, width: 400, height: 400 },
    moving: { x: 113, y: 80, width: 174, height: 207 },
  },
  grace: {
    content: { x: 0, y: 28, width: 400, height: 452 },
    moving: { x: 113, y: 28, width: 174, height: 259 },
  },
  rafael: {
    content: { x: 0, y: 86, width: 400, height: 394 },
    moving: { x: 113, y: 86, width: 174, height: 204 },
  },
  aisha: {
    content: { x: 0, y: 44, width: 400, height: 436 },
    moving: { x: 70, y: 44, width: 260, height: 328 },
  },
  tomas: {
    content: { x: 0, y: 66, width: 400, height: 414 },
    moving: { x: 105, y: 66, width: 190, height: 270 },
  },
  lin: {
    content: { x: 0, y: 36, width: 400, height: 444 },
    moving: { x: 70, y: 36, width: 260, height: 354 },
  },
  walter: {
    content: { x: 0, y: 70, width: 400, height: 410 },
    moving: { x: 113, y: 70, width: 174, height: 217 },
  },
  priya: {
    content: { x: 0, y: 28, width: 400, height: 452 },
    moving: { x: 113, y: 28, width: 174, height: 259 },
  },
  jordan: {
    content: { x: 0, y: 40, width: 400, height: 440 },
    moving: { x: 82, y: 40, width: 236, height: 319 },
  },
};
