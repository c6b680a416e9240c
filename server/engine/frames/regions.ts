// Where each layer of a frame reaches, written once for the compositor and the render:
//   - the head region: the moving layers in every pose of the idle motion (composed again when the pose changes);
//   - the body: the torso with its extension to the frame's bottom (never moves);
//   - the caption box with what its style paints past it (composed again when the page or the spoken word changes).
import type { Rect, SceneLayout } from '../../../shared/scene/index.js';

/**
 * A rectangle of whole pixels, a class of its own: V8 keeps a field of an object shape as a
 * double once any object of that shape held a fraction (layout rectangles do), and a pixel loop
 * handed such a value is deoptimised ("not a Smi") and compiled again, in every render.
 */
export class PixelRect implements Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  constructor(x: number, y: number, width: number, height: number) {
    this.x = x | 0;
    this.y = y | 0;
    this.width = width | 0;
    this.height = height | 0;
  }
}

export interface RegionPlan {
  /** Where the moving layers (head, hair, face) stay in every pose: composed again when the pose changes. */
  presenter: PixelRect | null;
  /** The body's box (with its extension down to the frame's bottom), a pixel wider for its edge. */
  body: PixelRect | null;
  /** The caption box with what its style paints past it (a shadow, an outline). */
  caption: PixelRect | null;
}

function clipEven(r: Rect, W: number, H: number): PixelRect | null {
  const x0 = Math.max(0, Math.floor(r.x / 2) * 2);
  const y0 = Math.max(0, Math.floor(r.y / 2) * 2);
  const x1 = Math.min(W, Math.ceil((r.x + r.width) / 2) * 2);
  const y1 = Math.min(H, Math.ceil((r.y + r.height) / 2) * 2);
  return x1 - x0 >= 2 && y1 - y0 >= 2 ? new PixelRect(x0, y0, x1 - x0, y1 - y0) : null;
}

export function planRegions(layout: SceneLayout): RegionPlan {
  const { width: W, height: H } = layout.size;
  const m = layout.rig.motionMargin * layout.presenterScale + 2;
  const b = layout.presenterMoving;
  const presenter = clipEven({ x: b.x - m, y: b.y - m, width: b.width + 2 * m, height: b.height + 2 * m }, W, H);
  // Only the card's shadow and the big style's outline reach past the caption box.
  const reach: Record<string, number> = { card: 0.75, big: 0.2 };
  const cm = layout.captionFontPx * (reach[layout.style.caption] ?? 0) + 2;
  const c = layout.caption;
  const caption = clipEven({ x: c.x - cm, y: c.y - cm, width: c.width + 2 * cm, height: c.height + 2 * cm }, W, H);
  const p = layout.presenter;
  const ext = layout.torsoExtension;
  const bottom = Math.max(p.y + p.height, ext ? ext.y + ext.height : 0);
  const body = clipEven({ x: p.x, y: p.y, width: p.width + 2, height: bottom - p.y + 2 }, W, H);
  return { presenter, body, caption };
}
