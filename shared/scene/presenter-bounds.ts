// Painted bounds of each presenter's art at rest, in art units (viewBox 400×480).
// Written by server/engine/tools/presenter-art.ts when it draws the art; do not edit by hand.
import type { Rect } from './types.js';

export const PRESENTER_BOUNDS: Record<string, Rect> = {};
