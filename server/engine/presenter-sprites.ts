// The presenter's region of a frame, composed from YUV sprites (see sprites.ts): the background
// under the region, the hair behind the body, the body (static), then head, eyes and mouth, in
// the layer order drawPresenter uses. Moving layers are cut once per (part, sub-pixel phase), so
// a minute of idle motion needs a few dozen Skia draws instead of one per frame.
import { createCanvas } from '@napi-rs/canvas';
import { drawTorso, type PresenterAssets, type PresenterPart, type PresenterPose, type Rect, type SceneLayout } from '../../shared/scene/index.js';
import { blendSprite, splitOffset, spriteFromRgba, type Sprite } from './sprites.js';
import { allocPlanes, rgbaToYuva, type Planes } from './yuv.js';

type Drawable = Parameters<ReturnType<ReturnType<typeof createCanvas>['getContext']>['drawImage']>[0];

export class PresenterCompositor {
  private readonly under: Planes;
  private readonly torso: Sprite | null;
  private readonly sprites = new Map<string, Sprite | null>();
  private readonly canvas;
  private readonly ctx;

  /** `region` has even coordinates and size (see planRegions); `background` is the whole frame. */
  constructor(
    private readonly layout: SceneLayout,
    private readonly assets: PresenterAssets,
    background: Drawable,
    private readonly region: Rect,
  ) {
    const { width: w, height: h } = region;
    this.canvas = createCanvas(w, h);
    this.ctx = this.canvas.getContext('2d');
    this.ctx.drawImage(background, region.x, region.y, w, h, 0, 0, w, h);
    this.under = rgbaToYuva(this.canvas.data(), w, h);
    this.under.a.fill(255);
    this.torso = this.cut((ctx) => drawTorso(ctx, assets, layout));
  }

  /** Where a pose puts the moving layers: even pixel offsets plus half-pixel phases. */
  placement(pose: PresenterPose): { key: string; ex: number; ey: number; px: number; py: number } {
    const k = this.layout.presenterScale;
    const { even: ex, phase: px } = splitOffset(pose.headDx * k);
    const { even: ey, phase: py } = splitOffset(pose.headDy * k);
    return { key: `${pose.viseme}:${pose.blink ? 1 : 0}:${ex + px}:${ey + py}`, ex, ey, px, py };
  }

  /** Composes the region for a pose into `out` (opaque: its alpha plane is all 255). */
  compose(pose: PresenterPose, out: Planes): void {
    const { ex, ey, px, py } = this.placement(pose);
    out.y.set(this.under.y);
    out.u.set(this.under.u);
    out.v.set(this.under.v);
    out.a.set(this.under.a);
    const target = out;
    const layer = (part: PresenterPart) => {
      const s = this.moving(part, px, py);
      if (s) blendSprite(target, s, ex, ey);
    };
    layer('hair-back');
    if (this.torso) blendSprite(target, this.torso, 0, 0);
    layer('head');
    layer(pose.blink ? 'eyes-closed' : 'eyes-open');
    layer(`mouth-${pose.viseme}`);
  }

  /** How many moving-layer sprites have been cut so far (each a Skia draw and a conversion). */
  get spriteCount(): number {
    return this.sprites.size;
  }

  /** A fresh target of the region's size. */
  planes(): Planes {
    return allocPlanes(this.region.width, this.region.height);
  }

  private moving(part: PresenterPart, px: number, py: number): Sprite | null {
    const key = `${part}:${px}:${py}`;
    if (this.sprites.has(key)) return this.sprites.get(key)!;
    const box = this.layout.presenter;
    const s = this.cut((ctx) => ctx.drawImage(this.assets.parts[part] as Drawable, box.x + px, box.y + py, box.width, box.height));
    this.sprites.set(key, s);
    return s;
  }

  /** Draws with frame coordinates on the region's canvas and cuts the painted pixels out. */
  private cut(draw: (ctx: typeof this.ctx) => void): Sprite | null {
    const { ctx, region } = this;
    ctx.clearRect(0, 0, region.width, region.height);
    ctx.save();
    ctx.translate(-region.x, -region.y);
    draw(ctx);
    ctx.restore();
    return spriteFromRgba(this.canvas.data(), region.width, region.height);
  }
}
