// Which parts of the frame change during a video: the presenter (with room for idle motion)
// and the caption box. Only these regions are drawn per frame and sent to ffmpeg, packed
// one above the other in an "atlas" frame; the static background goes to ffmpeg once.
import type { Rect, SceneLayout } from '../../shared/scene/index.js';

export interface Region extends Rect {
  /** Row of the atlas where this region starts. */
  atlasY: number;
}

export interface RegionPlan {
  regions: Region[];
  atlasWidth: number;
  atlasHeight: number;
}

/** Art units of room around the presenter's rest bounds for sway, tilt and breathing. */
const MOTION_MARGIN = 12;

function clipEven(r: Rect, W: number, H: number): Rect | null {
  const x0 = Math.max(0, Math.floor(r.x / 2) * 2);
  const y0 = Math.max(0, Math.floor(r.y / 2) * 2);
  const x1 = Math.min(W, Math.ceil((r.x + r.width) / 2) * 2);
  const y1 = Math.min(H, Math.ceil((r.y + r.height) / 2) * 2);
  return x1 - x0 >= 2 && y1 - y0 >= 2 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

const intersects = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const union = (a: Rect, b: Rect): Rect => {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
};

export function planRegions(layout: SceneLayout): RegionPlan {
  const { width: W, height: H } = layout.size;
  const m = MOTION_MARGIN * layout.presenterScale + 2;
  const b = layout.presenterBounds;
  const presenter = clipEven({ x: b.x - m, y: b.y - m, width: b.width + 2 * m, height: b.height + m + 2 }, W, H);
  // Shadows and outlines of caption styles reach a little past the box.
  const cm = layout.captionFontPx * 0.9;
  const c = layout.caption;
  const caption = clipEven({ x: c.x - cm, y: c.y - cm, width: c.width + 2 * cm, height: c.height + 2 * cm }, W, H);
  let rects = [presenter, caption].filter((r): r is Rect => r !== null);
  if (rects.length === 2 && intersects(rects[0]!, rects[1]!)) rects = [union(rects[0]!, rects[1]!)];
  let y = 0;
  const regions = rects.map((r) => {
    const region = { ...r, atlasY: y };
    y += r.height;
    return region;
  });
  return { regions, atlasWidth: Math.max(2, ...regions.map((r) => r.width)), atlasHeight: Math.max(2, y) };
}
