// Where the caption box goes (params.captionPosition): at the bottom of the title-safe area, at
// its top, or beside the presenter (in the wider column the presenter leaves free). `auto` takes
// the first of those that keeps the presenter's face clear, so captions never cover it.
import type { CaptionPosition } from '../contract/index.js';
import type { Rect, Size } from './types.js';

export interface CaptionPlacement {
  size: Size;
  safe: Rect;
  /** The box at the bottom, as the template's style places it. */
  bottom: Rect;
  /** The face's region (the moving layers in every pose), or null: no presenter. */
  face: Rect | null;
  /** The presenter's painted box (beside: the caption keeps clear of all of it). */
  body: Rect | null;
  /** The caption's text size: a column narrower than a few words is no place for captions. */
  fontPx: number;
}

export function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The box at the top of the safe area. */
function top(p: CaptionPlacement): Rect {
  return { ...p.bottom, y: p.safe.y };
}

/** The box in the wider column beside `body` (the presenter, or only its face), at the safe area's bottom; null without one. */
function beside(p: CaptionPlacement, body: Rect | null): Rect | null {
  if (!body) return null;
  const gap = Math.round(p.fontPx * 0.5);
  const safeRight = p.safe.x + p.safe.width;
  const left = { x0: p.safe.x, x1: Math.min(safeRight, body.x - gap) };
  const right = { x0: Math.max(p.safe.x, body.x + body.width + gap), x1: safeRight };
  const col = left.x1 - left.x0 >= right.x1 - right.x0 ? left : right;
  const width = Math.min(p.bottom.width, Math.floor(col.x1 - col.x0));
  const x = col === left ? col.x1 - width : col.x0;
  return { x: Math.round(x), y: p.bottom.y, width, height: p.bottom.height };
}

/** A column too narrow for two or three words a line is not offered. */
const besideFits = (p: CaptionPlacement, r: Rect | null): r is Rect => !!r && r.width >= p.fontPx * 5;

/** The caption box for a position. */
export function placeCaption(p: CaptionPlacement, position: CaptionPosition = 'auto'): Rect {
  if (position === 'bottom') return p.bottom;
  if (position === 'top') return top(p);
  const side = beside(p, p.body);
  if (position === 'beside') return side && side.width > 0 ? side : p.bottom;
  if (!p.face) return p.bottom;
  // Beside the whole presenter; failing that, beside the face only (over the shoulder, never the chin).
  const besideFace = beside(p, p.face);
  // A style that sits above the bottom edge (big captions in the lower third) may also go down onto it.
  const lowest = { ...p.bottom, y: p.safe.y + p.safe.height - p.bottom.height };
  const candidates = [p.bottom, lowest, top(p), ...[side, besideFace].filter((r) => besideFits(p, r))];
  // The first that keeps the face clear; else the one that covers least of it.
  let best = candidates[0]!;
  let bestArea = Infinity;
  for (const c of candidates) {
    const area = overlapArea(c, p.face);
    if (area === 0) return c;
    if (area < bestArea) [best, bestArea] = [c, area];
  }
  return best;
}
