// Draws the preview: the scene exactly as the video frame (through the scene code, in output
// pixels scaled to the element), then the interactive layer (box, handles, snap guides).
import type { RenderParams, Template } from '../../shared/contract/index.js';
import { outputSize } from '../../shared/contract/index.js';
import type { BackgroundPicture, ImageLike, RigKind, SceneBrand } from '../../shared/scene/index.js';
import { SNAP_LINES } from '../lib/placement.js';
import { HANDLE_PX } from './gesture.js';
import { drawScene, presenterBox } from './scene.js';

export interface PreviewState {
  template: Template | null;
  params: RenderParams;
  caption: string;
  /** The scene's own background; null: the template's. */
  picture: BackgroundPicture | null;
  /** False: the scene has no presenter (nothing to place, no box). */
  presenter: boolean;
  /** Who speaks (absent: the template's suggestion). */
  presenterId?: string;
  guidesX: number[];
  guidesY: number[];
  active: boolean;
  focused: boolean;
  /** Extension `brand`: the video's brand and its logo image once loaded. */
  brand?: SceneBrand;
  logo?: ImageLike;
}

/** Answers the kind of presenter drawn ('photo' once a photo presenter's rig has loaded), null when the canvas cannot draw. */
export function drawPreview(scene: HTMLCanvasElement, overlay: HTMLCanvasElement, cssW: number, cssH: number, s: PreviewState, accent: string): RigKind | null {
  const dpr = window.devicePixelRatio || 1;
  const out = outputSize(s.params.aspectRatio);
  for (const c of [scene, overlay]) {
    const w = Math.round(cssW * dpr);
    const h = Math.round(cssH * dpr);
    if (c.width !== w || c.height !== h) {
      c.width = w;
      c.height = h;
    }
  }
  const ctx = scene.getContext('2d');
  let drawn: RigKind | null = null;
  if (ctx) {
    ctx.setTransform((cssW * dpr) / out.width, 0, 0, (cssH * dpr) / out.height, 0, 0);
    drawn = drawScene(ctx, {
      template: s.template, params: s.params, width: out.width, height: out.height, caption: s.caption, picture: s.picture, presenter: s.presenter, presenterId: s.presenterId,
      ...(s.brand ? { brand: s.brand } : {}), ...(s.logo ? { logo: s.logo } : {}),
    }).rig.kind;
  }
  const o = overlay.getContext('2d');
  if (!o) return drawn;
  o.setTransform(dpr, 0, 0, dpr, 0, 0);
  o.clearRect(0, 0, cssW, cssH);
  if (!s.presenter) return drawn;
  if (s.active) {
    o.strokeStyle = 'rgba(255,255,255,0.28)';
    o.lineWidth = 1;
    o.setLineDash([4, 4]);
    o.beginPath();
    for (const f of SNAP_LINES) {
      o.moveTo(Math.round(f * cssW) + 0.5, 0);
      o.lineTo(Math.round(f * cssW) + 0.5, cssH);
      o.moveTo(0, Math.round(f * cssH) + 0.5);
      o.lineTo(cssW, Math.round(f * cssH) + 0.5);
    }
    o.stroke();
    o.setLineDash([]);
    o.strokeStyle = '#ff3ea5';
    o.lineWidth = 1.5;
    o.beginPath();
    for (const f of s.guidesX) {
      o.moveTo(f * cssW, 0);
      o.lineTo(f * cssW, cssH);
    }
    for (const f of s.guidesY) {
      o.moveTo(0, f * cssH);
      o.lineTo(cssW, f * cssH);
    }
    o.stroke();
  }
  const b = presenterBox(s.template, s.params, out.width, out.height, s.presenterId);
  const k = cssW / out.width;
  const x = b.x * k;
  const y = b.y * (cssH / out.height);
  const w = b.width * k;
  const h = b.height * (cssH / out.height);
  o.strokeStyle = accent;
  o.lineWidth = s.active || s.focused ? 2 : 1;
  o.setLineDash(s.active || s.focused ? [] : [5, 4]);
  o.strokeRect(x, y, w, h);
  o.setLineDash([]);
  o.fillStyle = '#fff';
  for (const [hx, hy] of [
    [x, y],
    [x + w, y],
    [x, y + h],
    [x + w, y + h],
  ] as const) {
    o.beginPath();
    o.rect(hx - HANDLE_PX / 2, hy - HANDLE_PX / 2, HANDLE_PX, HANDLE_PX);
    o.fill();
    o.stroke();
  }
  return drawn;
}
