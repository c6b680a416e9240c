// Geometry of a frame: where the presenter stands (params.avatar: centre x/y as fractions of
// the frame, scale = presenter height as a fraction of frame height), the title-safe area and
// the caption box. Pure arithmetic, so the preview's hit-testing and the video agree exactly.
import type { Avatar, RenderParams } from '../contract/index.js';
import { vectorGeometry, type RigGeometry } from './rig.js';
import { sceneStyle, type SceneStyle } from './styles.js';
import type { Rect, Size } from './types.js';

export interface SceneLayout {
  templateId: string;
  style: SceneStyle;
  size: Size;
  /** Title-safe area: captions always lie inside it, for every aspect ratio. */
  safe: Rect;
  /** The presenter art's full box (viewBox mapped to pixels); may extend past the frame. */
  presenter: Rect;
  /** The painted pixels of the presenter's art at rest (hair top to torso bottom), in frame pixels. */
  presenterBounds: Rect;
  /** Where the torso is continued below the art down to the frame's bottom edge (null: the art reaches it). */
  torsoExtension: Rect | null;
  /** The moving layers' painted box at rest (head, hair, face), in frame pixels. */
  presenterMoving: Rect;
  /** px per art unit. */
  presenterScale: number;
  /** The presenter's rig geometry (art units): what the boxes above are made from. */
  rig: RigGeometry;
  /** The caption box (background plate included). */
  caption: Rect;
  captionFontPx: number;
  captionLineHeight: number;
  captionPadding: number;
}

/** Fraction of each frame edge kept clear of captions (broadcast title-safe is 5–10 %). */
export const SAFE_MARGIN = 0.06;

/**
 * `presenter`: a scene's own presenter in place of the template's suggestion, as a built-in
 * vector presenter's id or any rig's geometry (a photo presenter's).
 */
export function computeLayout(templateId: string, params: RenderParams, size: Size, presenter?: string | RigGeometry): SceneLayout {
  const templateStyle = sceneStyle(templateId);
  const presenterId = typeof presenter === 'string' ? presenter : presenter?.id;
  const style = presenterId ? { ...templateStyle, presenterId } : templateStyle;
  const { width: W, height: H } = size;
  const short = Math.min(W, H);
  const mx = Math.round(W * SAFE_MARGIN);
  const my = Math.round(H * SAFE_MARGIN);
  const safe: Rect = { x: mx, y: my, width: W - 2 * mx, height: H - 2 * my };

  const art = typeof presenter === 'object' ? presenter : vectorGeometry(style.presenterId);
  const ph = params.avatar.scale * H;
  const k = ph / art.height;
  const pw = art.width * k;
  const box: Rect = { x: params.avatar.x * W - pw / 2, y: params.avatar.y * H - ph / 2, width: pw, height: ph };
  const b = art.contentBounds;
  const toFrame = (r: Rect): Rect => ({ x: box.x + r.x * k, y: box.y + r.y * k, width: r.width * k, height: r.height * k });
  const presenterBounds = toFrame(b);
  // A presenter placed high would end in mid-air: drawTorso continues the torso down to the
  // frame's bottom edge. Kept apart from presenterBounds, which the preview's handles frame.
  const artBottom = box.y + box.height;
  const torsoExtension: Rect | null =
    b.y + b.height >= art.height && artBottom < H
      ? { x: presenterBounds.x, y: artBottom, width: presenterBounds.width, height: H - artBottom }
      : null;
  const presenterMoving = toFrame(art.movingBounds);

  // Caption text size follows the short side, but never so big that maxWordsPerLine cannot fit.
  let fontPx = Math.round(style.captionScale * short);
  if (style.caption === 'big') fontPx = Math.min(fontPx, Math.round(safe.width / 7));
  const lineHeight = Math.round(fontPx * 1.32);
  const pad = Math.round(fontPx * (style.caption === 'big' || style.caption === 'chalk' ? 0.2 : 0.55));
  const boxH = style.captionLines * lineHeight + 2 * pad;
  let boxW = safe.width;
  if (style.caption === 'pill' || style.caption === 'subtitleBox') boxW = Math.round(safe.width * (W > H ? 0.82 : 1));
  if (style.caption === 'card') boxW = Math.round(safe.width * (W > H ? 0.9 : 1));
  // Vertical placement: most styles sit on the safe area's bottom edge; big captions sit in the lower third.
  const bottom = safe.y + safe.height;
  const boxY = style.caption === 'big' ? Math.min(bottom - boxH, Math.round(H * 0.74 - boxH / 2)) : bottom - boxH;
  const caption: Rect = { x: Math.round((W - boxW) / 2), y: boxY, width: boxW, height: boxH };

  return {
    templateId, style, size, safe, presenter: box, presenterBounds, torsoExtension, presenterMoving, presenterScale: k, rig: art, caption,
    captionFontPx: fontPx, captionLineHeight: lineHeight, captionPadding: pad,
  };
}

/** True when a point (frame pixels) lies on the presenter: for drag hit-testing in the preview. */
export function hitPresenter(layout: SceneLayout, px: number, py: number): boolean {
  const r = layout.presenterBounds;
  return px >= r.x && px <= r.x + r.width && py >= r.y && py <= r.y + r.height;
}

/** A corner of the presenter's painted box, as a direction from its centre (-1 left/top, +1 right/bottom). */
export interface PresenterCorner {
  h: -1 | 1;
  v: -1 | 1;
}

/**
 * The corner of the presenter's painted box within `tolerance` frame pixels of a point (both
 * axes), or null: the preview's resize handles. The box is the one `hitPresenter` tests.
 */
export function presenterCornerAt(layout: SceneLayout, px: number, py: number, tolerance: number): PresenterCorner | null {
  const r = layout.presenterBounds;
  const near = (v: number, edge: number) => Math.abs(v - edge) <= tolerance;
  const h = near(px, r.x) ? -1 : near(px, r.x + r.width) ? 1 : 0;
  const v = near(py, r.y) ? -1 : near(py, r.y + r.height) ? 1 : 0;
  return h && v ? { h, v } : null;
}

/**
 * Where a corner of the painted box sits relative to the avatar centre, in frame heights per
 * unit of scale: corner = centre + (fx, fy) × scale × frameHeight. The box grows linearly
 * with scale, so a corner drag can solve for the scale that puts the corner under the pointer.
 */
export function presenterCornerOffset(layout: SceneLayout, avatar: Avatar, corner: PresenterCorner): { fx: number; fy: number } {
  const r = layout.presenterBounds;
  const { width: W, height: H } = layout.size;
  const unit = avatar.scale * H;
  const x = corner.h < 0 ? r.x : r.x + r.width;
  const y = corner.v < 0 ? r.y : r.y + r.height;
  return { fx: (x - avatar.x * W) / unit, fy: (y - avatar.y * H) / unit };
}

/** Inverse of the placement: the avatar centre (fractions) that puts the presenter box's centre at a pixel. */
export function avatarCentreAt(size: Size, px: number, py: number): { x: number; y: number } {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return { x: clamp(px / size.width), y: clamp(py / size.height) };
}
