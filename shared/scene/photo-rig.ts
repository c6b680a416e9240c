// The photo rig: a portrait that speaks. The presenter is the portrait's head-and-shoulders crop
// (portraitCrop), drawn in a framed card or, with a cut-out mask, as the person alone over the
// scene. Per frame only the face region is redrawn: the mesh moved for the pose and the portrait
// mapped onto it (face-warp.ts), with the inside of the mouth painted where the lips part
// (inner-mouth.ts). Everything else is a still picture made once per placement size.
import { MESH_POINTS, portraitCrop, toPixels, type Point } from './face-mesh.js';
import { buildFaceRig, posePoints, warpRegion, type FaceRig } from './face-warp.js';
import { innerMouthBox, paintInnerMouth, RGBA_MOUTH, type MouthColours } from './inner-mouth.js';
import type { SceneLayout } from './layout.js';
import type { PresenterRig, RigGeometry } from './rig.js';
import type { Ctx2D, ImageLike, PresenterPose, Rect } from './types.js';

/** The photo presenter's looks: the portrait in a rounded card, or the person cut out. */
export type PhotoLook = 'card' | 'cutout';

/** What the rig is made from (the server's stored presenter, its files loaded by the caller). */
export interface PhotoSource {
  id: string;
  portrait: ImageLike;
  /** The portrait's size in pixels. */
  width: number;
  height: number;
  /** Face Mesh points, x and y as fractions of the portrait. */
  landmarks: readonly (readonly (number | undefined)[])[];
  /** The cut-out: an image of the portrait's size whose alpha is the person; null: the card. */
  mask: ImageLike | null;
}

/** Pixels as a Canvas 2D context reads and writes them (ImageData in the browser and in @napi-rs/canvas). */
export interface PixelData {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}
/** The few calls beyond Ctx2D the rig needs on its own canvases. */
export interface PixelCtx extends Ctx2D {
  getImageData(x: number, y: number, w: number, h: number): PixelData;
  putImageData(data: PixelData, x: number, y: number): void;
  createImageData(w: number, h: number): PixelData;
  globalCompositeOperation: string;
  drawImage(image: ImageLike, dx: number, dy: number, dw: number, dh: number): void;
}
/** Makes an offscreen canvas (the platform's: a browser canvas, @napi-rs/canvas in Node). */
export type MakeCanvas = (width: number, height: number) => { canvas: ImageLike; ctx: PixelCtx };

/** The card's frame width and corner radius, as shares of the card's width. */
const CARD_FRAME = 0.022;
const CARD_RADIUS = 0.06;
/** The cut-out fades out over this share of its height at the bottom (where the photo ends). */
const CUTOUT_FADE = 0.1;

/** The crop and where the rig's parts are in it (art units: the crop's pixels). */
export interface PhotoGeometry extends RigGeometry {
  crop: Rect;
}

/** The rig's geometry from the portrait and its landmarks; `maskBounds`: the person's box in the crop (cut-out). */
export function photoGeometry(src: Pick<PhotoSource, 'id' | 'width' | 'height' | 'landmarks'>, maskBounds: Rect | null): PhotoGeometry {
  const points = toPixels(src.landmarks, src.width, src.height);
  const crop = portraitCrop(points, src.width, src.height);
  const inCrop = points.map(([x, y]) => [x - crop.x, y - crop.y] as const);
  // The face rig at art scale, for the region that moves.
  const face = buildFaceRig(inCrop, crop, crop.height);
  return {
    id: src.id, kind: 'photo', width: crop.width, height: crop.height, crop,
    contentBounds: maskBounds ?? { x: 0, y: 0, width: crop.width, height: crop.height },
    movingBounds: face.region,
    // The warp never reaches past its outer ring (the region): a unit for rounding.
    motionMargin: 1,
  };
}

/** The person's box in the crop (art units) from the mask's alpha, read at a small size. */
export function maskBounds(mask: ImageLike, crop: Rect, make: MakeCanvas): Rect | null {
  const h = Math.min(160, crop.height);
  const k = h / crop.height;
  const w = Math.max(1, Math.round(crop.width * k));
  const { ctx } = make(w, h);
  ctx.save();
  ctx.scale(k, k);
  ctx.translate(-crop.x, -crop.y);
  const img = mask as { width: number; height: number };
  ctx.drawImage(mask, 0, 0, img.width, img.height);
  ctx.restore();
  const { data } = ctx.getImageData(0, 0, w, h);
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (data[(y * w + x) * 4 + 3]! < 128) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  if (x1 < 0) return null;
  return { x: x0 / k, y: y0 / k, width: (x1 + 1 - x0) / k, height: (y1 + 1 - y0) / k };
}

/** One placement size's pictures and mesh. */
interface Prepared {
  width: number;
  height: number;
  still: ImageLike;
  /** The still picture with the face region cleared (the warp fills it). */
  stillHole: ImageLike;
  stillPixels: Uint8ClampedArray;
  face: FaceRig;
  moved: Float64Array<ArrayBuffer>;
  scratch: { canvas: ImageLike; ctx: PixelCtx };
  out: PixelData;
}

/**
 * The photo rig's moving part at one placement, for a caller that composes it itself (the
 * engine, in YUV): the still picture's pixels, the mesh, and the two steps `draw` takes, the
 * warp (face-warp.ts) and the inner mouth (inner-mouth.ts), both on pixels of any four channels.
 */
export interface PhotoFace {
  /** The still picture: straight RGBA words, `width` × `height`, its top-left at (x, y) in frame pixels. */
  still: Int32Array;
  width: number;
  height: number;
  x: number;
  y: number;
  rig: FaceRig;
  /** The mesh's points moved for a pose (a buffer reused by the next call). */
  pose(pose: PresenterPose): Float64Array;
  /** Where the inner mouth paints for moved points (still picture pixels, whole), or null when the lips are closed. */
  mouthBox(moved: Float64Array): Rect | null;
  /** Paints the inner mouth onto `out` (`width` × `height` words, its pixel (0, 0) the still picture's (ox, oy)) in `colours`, the words' own channels. */
  paintMouth(out: Int32Array, width: number, height: number, ox: number, oy: number, moved: Float64Array, colours: MouthColours): void;
}

export interface PhotoRig extends PresenterRig {
  readonly geometry: PhotoGeometry;
  readonly look: PhotoLook;
  /** The moving part at the layout's placement (prepared once per placement size). */
  face(layout: SceneLayout): PhotoFace;
}

/** True for the photo rig (its moving part can be composed by the caller: `face`). */
export const isPhotoRig = (rig: PresenterRig): rig is PhotoRig => rig.geometry.kind === 'photo' && 'face' in rig;

/** The photo rig of a portrait; `make` gives the platform's offscreen canvases. */
export function photoRig(src: PhotoSource, make: MakeCanvas): PhotoRig {
  const look: PhotoLook = src.mask ? 'cutout' : 'card';
  const first = photoGeometry(src, null);
  const geometry = src.mask ? photoGeometry(src, maskBounds(src.mask, first.crop, make)) : first;
  const { crop } = geometry;
  const points = toPixels(src.landmarks, src.width, src.height);
  const prepared = new Map<string, Prepared>();

  const prepare = (layout: SceneLayout): Prepared => {
    const W = Math.max(1, Math.ceil(layout.presenter.width));
    const H = Math.max(1, Math.ceil(layout.presenter.height));
    const key = `${W}x${H}`;
    let p = prepared.get(key);
    if (p) return p;
    const k = layout.presenterScale;
    const still = make(W, H);
    paintStill(still.ctx, src, crop, k, W, H, look);
    const stillPixels = still.ctx.getImageData(0, 0, W, H).data;
    const scaled: Point[] = points.slice(0, MESH_POINTS).map(([x, y]) => [(x - crop.x) * k, (y - crop.y) * k] as const);
    const face = buildFaceRig(scaled, { width: W, height: H }, layout.presenter.height);
    const hole = make(W, H);
    hole.ctx.drawImage(still.canvas, 0, 0, W, H);
    hole.ctx.clearRect(face.region.x, face.region.y, face.region.width, face.region.height);
    const scratch = make(face.region.width, face.region.height);
    p = {
      width: W, height: H, still: still.canvas, stillHole: hole.canvas, stillPixels, face,
      moved: new Float64Array(face.rest.length), scratch, out: scratch.ctx.createImageData(face.region.width, face.region.height),
    };
    // A few sizes at most (the preview's canvas, the video's frame); a resized window makes more.
    if (prepared.size >= 4) prepared.clear();
    prepared.set(key, p);
    return p;
  };

  /** The placement's top-left in whole pixels, so the still and the warped region line up. */
  const origin = (layout: SceneLayout) => [Math.round(layout.presenter.x), Math.round(layout.presenter.y)] as const;

  return {
    geometry,
    look,
    compositing: 'redraw',
    layers: null,
    draw(ctx: Ctx2D, layout: SceneLayout, pose: PresenterPose) {
      const p = prepare(layout);
      const [ox, oy] = origin(layout);
      const R = p.face.region;
      ctx.drawImage(p.stillHole, ox, oy, p.width, p.height);
      posePoints(p.face, pose, p.moved);
      const still = words(p.stillPixels);
      const out = words(p.out.data);
      warpRegion(p.face, p.moved, still, p.width, p.height, out);
      paintInnerMouth(out, R.width, R.height, R.x, R.y, p.face, p.moved, RGBA_MOUTH);
      p.scratch.ctx.putImageData(p.out, 0, 0);
      ctx.drawImage(p.scratch.canvas, ox + R.x, oy + R.y, R.width, R.height);
    },
    drawStill(ctx: Ctx2D, layout: SceneLayout) {
      const p = prepare(layout);
      const [ox, oy] = origin(layout);
      ctx.drawImage(p.still, ox, oy, p.width, p.height);
    },
    face(layout: SceneLayout): PhotoFace {
      const p = prepare(layout);
      const [x, y] = origin(layout);
      return {
        still: words(p.stillPixels), width: p.width, height: p.height, x, y, rig: p.face,
        pose: (pose) => posePoints(p.face, pose, p.moved),
        mouthBox: (moved) => innerMouthBox(p.face, moved),
        paintMouth: (out, width, height, ox, oy, moved, colours) => {
          paintInnerMouth(out, width, height, ox, oy, p.face, moved, colours);
        },
      };
    },
  };
}

/** RGBA bytes as 32-bit words (a view when aligned). */
function words(px: Uint8ClampedArray): Int32Array {
  return px.byteOffset % 4 === 0 ? new Int32Array(px.buffer, px.byteOffset, px.length >> 2) : new Int32Array(px.slice().buffer);
}

/** The presenter at rest: the crop scaled to the box, in its card or cut out. */
function paintStill(ctx: PixelCtx, src: PhotoSource, crop: Rect, k: number, W: number, H: number, look: PhotoLook): void {
  const drawCrop = (image: ImageLike) => {
    ctx.save();
    ctx.scale(k, k);
    ctx.translate(-crop.x, -crop.y);
    ctx.drawImage(image, 0, 0, src.width, src.height);
    ctx.restore();
  };
  if (look === 'card') {
    const frame = Math.max(1, Math.round(W * CARD_FRAME));
    const r = W * CARD_RADIUS;
    ctx.fillStyle = '#ffffff';
    ctx.beginPath();
    ctx.roundRect(0, 0, W, H, r);
    ctx.fill();
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(frame, frame, W - 2 * frame, H - 2 * frame, Math.max(0, r - frame));
    ctx.clip();
    drawCrop(src.portrait);
    ctx.restore();
    return;
  }
  drawCrop(src.portrait);
  ctx.globalCompositeOperation = 'destination-in';
  drawCrop(src.mask!);
  // The photo ends at the crop's bottom: the person fades out there instead of being cut.
  ctx.globalCompositeOperation = 'destination-out';
  const fade = ctx.createLinearGradient(0, H * (1 - CUTOUT_FADE), 0, H);
  fade.addColorStop(0, 'rgba(0,0,0,0)');
  fade.addColorStop(1, 'rgba(0,0,0,1)');
  ctx.fillStyle = fade;
  ctx.fillRect(0, H * (1 - CUTOUT_FADE), W, H * CUTOUT_FADE);
  ctx.globalCompositeOperation = 'source-over';
}
