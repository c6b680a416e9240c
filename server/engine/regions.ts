// Which parts of the frame change during a video. The static background goes to ffmpeg once;
// per frame only two regions are sent, packed side by side or one above the other (whichever
// is smaller) in an "atlas" frame:
//   - the head region (background + presenter, opaque): redrawn every frame (idle motion,
//     mouth, blinks); the torso never moves, so it is part of the static background;
//   - the caption layer (captions alone on transparency): redrawn only when the caption page or
//     the spoken word changes, its bytes reused in between; ffmpeg blends it on top.
import type { Rect, SceneLayout } from '../../shared/scene/index.js';

export interface Region extends Rect {
  /** Where this region sits in the atlas. */
  atlasX: number;
  atlasY: number;
}

export interface RegionPlan {
  presenter: Region | null;
  caption: Region | null;
  atlasWidth: number;
  atlasHeight: number;
}

/** Art units of room around the moving layers' rest bounds for the head's sway and nod (see idleMotion). */
const MOTION_MARGIN = 4;

function clipEven(r: Rect, W: number, H: number): Rect | null {
  const x0 = Math.max(0, Math.floor(r.x / 2) * 2);
  const y0 = Math.max(0, Math.floor(r.y / 2) * 2);
  const x1 = Math.min(W, Math.ceil((r.x + r.width) / 2) * 2);
  const y1 = Math.min(H, Math.ceil((r.y + r.height) / 2) * 2);
  return x1 - x0 >= 2 && y1 - y0 >= 2 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

export function planRegions(layout: SceneLayout): RegionPlan {
  const { width: W, height: H } = layout.size;
  const m = MOTION_MARGIN * layout.presenterScale + 2;
  const b = layout.presenterMoving;
  const p = clipEven({ x: b.x - m, y: b.y - m, width: b.width + 2 * m, height: b.height + 2 * m }, W, H);
  // Only the card's shadow and the big style's outline reach past the caption box.
  const reach: Record<string, number> = { card: 0.75, big: 0.2 };
  const cm = layout.captionFontPx * (reach[layout.style.caption] ?? 0) + 2;
  const c = layout.caption;
  const cap = clipEven({ x: c.x - cm, y: c.y - cm, width: c.width + 2 * cm, height: c.height + 2 * cm }, W, H);
  if (!p || !cap) {
    const only = p ?? cap;
    const r = only ? { ...only, atlasX: 0, atlasY: 0 } : null;
    return { presenter: p ? r : null, caption: cap ? r : null, atlasWidth: Math.max(2, only?.width ?? 0), atlasHeight: Math.max(2, only?.height ?? 0) };
  }
  const stacked = Math.max(p.width, cap.width) * (p.height + cap.height);
  const sideBySide = (p.width + cap.width) * Math.max(p.height, cap.height);
  if (sideBySide < stacked) {
    return {
      presenter: { ...p, atlasX: 0, atlasY: 0 },
      caption: { ...cap, atlasX: p.width, atlasY: 0 },
      atlasWidth: p.width + cap.width,
      atlasHeight: Math.max(p.height, cap.height),
    };
  }
  return {
    presenter: { ...p, atlasX: 0, atlasY: 0 },
    caption: { ...cap, atlasX: 0, atlasY: p.height },
    atlasWidth: Math.max(p.width, cap.width),
    atlasHeight: p.height + cap.height,
  };
}
