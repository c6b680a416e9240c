// Presenters are rigs: one interface every presenter kind answers, so the layout, the preview
// and the engine treat a layered vector figure and an animated portrait alike.
//   - geometry: the rig's art box and where it paints, in art units (the layout maps them to
//     frame pixels at a placement: SceneLayout.presenter, presenterBounds, presenterMoving);
//   - draw: the whole presenter in a pose (poseAt: one motion model for every rig, from the
//     speech timeline), on any Canvas 2D context, in frame pixels;
//   - compositing: how the engine keeps it fast. 'layers' rigs hand over layers that move only
//     by translation (the engine cuts them once into YUV sprites); 'redraw' rigs are drawn
//     again inside their moving region whenever the pose changes, over a cached still frame.
import { MOTION_REACH } from './animation.js';
import type { SceneLayout } from './layout.js';
import { drawPresenter, drawTorso, type HeadCache } from './draw.js';
import { presenterArt, type PresenterAssets } from './presenters.js';
import type { Ctx2D, PresenterPose, Rect } from './types.js';

export type RigKind = 'vector' | 'photo';

/** A rig's art box and painted areas, in art units (any box; the vector art's is 400×480). */
export interface RigGeometry {
  id: string;
  kind: RigKind;
  width: number;
  height: number;
  /** Painted pixels at rest (what the preview's handles frame and placement keeps in frame). */
  contentBounds: Rect;
  /** Painted pixels of what moves (head, face), at rest. */
  movingBounds: Rect;
  /** Room around movingBounds, in art units, that head motion may reach (MOTION_REACH in animation.ts, plus a unit). */
  motionMargin: number;
}

export interface PresenterRig {
  readonly geometry: RigGeometry;
  /**
   * 'layers': `layers` is set; the engine cuts them into sprites and moves the head ones by the
   * pose's whole-pixel translation (the vector rig). 'redraw': the engine draws `draw` clipped
   * to the moving region (planRegions) each time the pose changes, over a cached frame of the
   * background and `drawStill` (the photo rig).
   */
  readonly compositing: 'layers' | 'redraw';
  /** The layered art, for 'layers' rigs. */
  readonly layers: PresenterAssets | null;
  /** The whole presenter in a pose at the layout's placement (ctx in frame pixels). */
  draw(ctx: Ctx2D, layout: SceneLayout, pose: PresenterPose, cache?: HeadCache): void;
  /** What never moves (torso, shoulders), at the layout's placement: must match `draw` outside the moving region. */
  drawStill(ctx: Ctx2D, layout: SceneLayout): void;
}


export function vectorGeometry(id: string): RigGeometry {
  const art = presenterArt(id);
  return {
    id, kind: 'vector', width: art.width, height: art.height, contentBounds: art.contentBounds, movingBounds: art.movingBounds,
    motionMargin: (MOTION_REACH * art.height) / 480 + 1,
  };
}

/** The vector rig: the layered SVG art of resources/presenters/<id>/. */
export function vectorRig(assets: PresenterAssets): PresenterRig {
  return {
    geometry: vectorGeometry(assets.art.id),
    compositing: 'layers',
    layers: assets,
    draw: (ctx, layout, pose, cache) => drawPresenter(ctx, assets, layout, pose, cache),
    drawStill: (ctx, layout) => drawTorso(ctx, assets, layout),
  };
}
