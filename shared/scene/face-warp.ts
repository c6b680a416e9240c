// The photo rig's motion, without a canvas: the Face Mesh points of a portrait are moved for a
// pose (the jaw and lips per viseme and opening, the eyelids, the head's sway, nod and roll), and
// the portrait is redrawn over the moved triangles by an affine texture mapping of our own
// (bilinear). The same arithmetic in the preview and the engine gives the same pixels.
//
// Around the face two rings of extra points (1.28 and 1.6 times the face outline, from the
// face's centre) join the mesh to the still picture: the head moves fully up to the outline,
// half at the inner ring and not at all at the outer one, so nothing tears at the border and
// the hair is only bent a pixel or two, never torn or smeared.
import { CHIN, EYES, FACE_OVAL, FOREHEAD, LIP_BOTTOM, LIP_TOP, MESH_POINTS, MESH_TRIANGLES, type Point } from './face-mesh.js';
import type { PresenterPose, Rect, Viseme } from './types.js';

/** What the photo rig reads of a pose. */
export type FacePose = Pick<PresenterPose, 'viseme' | 'open' | 'lid' | 'headDx' | 'headDy' | 'headRoll'>;

const INNER_RING = 1.28;
const OUTER_RING = 1.6;
const RING = FACE_OVAL.length;
/** Vertices: the mesh's points, then the inner ring, then the outer ring. */
export const WARP_VERTICES = MESH_POINTS + 2 * RING;

/** The lips' inner edges, corner to corner (78 to 308). */
export const UPPER_INNER = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308] as const;
export const LOWER_INNER = [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308] as const;
const UPPER_OUTER = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291] as const;
const LOWER_OUTER = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291] as const;
/** The mouth's inner edge as a closed path (upper lip left to right, lower lip right to left). */
export const MOUTH_PATH: readonly number[] = [...UPPER_INNER, ...[...LOWER_INNER].reverse().slice(1, -1)];

/** How wide the lips are drawn per mouth shape, as a share of the mouth's half-width (+ wider). */
const LIP_WIDTH: Record<Viseme, number> = { rest: 0, mbp: 0.02, etc: 0.04, fv: 0.02, e: 0.13, ai: 0.05, o: -0.13, u: -0.2 };
/** Bytes 0 and 2 of a pixel's word (and, shifted by 8, bytes 1 and 3): two channels per multiply. */
const LANES = 0x00ff00ff;
/** How far below zero an edge function may be for a pixel centre on the edge to count as inside. */
const EDGE_EPS = 1e-7;
/** The widest opening between the lips, as a share of the mouth's width. */
const MAX_GAP = 0.3;
/** Eyelids stop just short of each other: a closed eye still shows its lash line. */
const LID_TRAVEL = 0.94;

function smoothstep(e0: number, e1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}

/** Piecewise-linear interpolation of `ys` over increasing `xs`, held flat past the ends. */
function interp(xs: readonly number[], ys: readonly number[], x: number): number {
  if (x <= xs[0]!) return ys[0]!;
  for (let i = 1; i < xs.length; i++) {
    if (x <= xs[i]!) {
      const t = (x - xs[i - 1]!) / (xs[i]! - xs[i - 1]! || 1);
      return ys[i - 1]! + t * (ys[i]! - ys[i - 1]!);
    }
  }
  return ys[ys.length - 1]!;
}

/** A contour in face coordinates (a across, b down), sorted by a. */
function contour(ids: readonly number[], fa: Float64Array, fb: Float64Array): { a: number[]; b: number[] } {
  const pts = ids.map((i) => [fa[i]!, fb[i]!] as const).sort((p, q) => p[0] - q[0]);
  return { a: pts.map((p) => p[0]), b: pts.map((p) => p[1]) };
}

/**
 * A portrait's mesh at one scale, ready to move: rest positions (pixels of the presenter's still
 * picture), the triangles, the weights each motion has on each point, and the region that can
 * change (`region`, whole pixels, inside the picture).
 */
export interface FaceRig {
  rest: Float64Array<ArrayBuffer>;
  triangles: Uint16Array;
  region: Rect;
  /** Pixels per pose unit (1/480 of the box height). */
  unit: number;
  /** The face's axes: across (eyes' line) and down. */
  ux: readonly [number, number];
  uy: readonly [number, number];
  pivot: Point;
  mouth: { center: Point; halfWidth: number; restGap: number; upper: { a: number[]; b: number[] }; lower: { a: number[]; b: number[] } };
  /** Per vertex: a and b in face coordinates around the mouth's centre. */
  fa: Float64Array;
  fb: Float64Array;
  head: Float32Array;
  jaw: Float32Array;
  upperLip: Float32Array;
  corner: Float32Array;
  /** Per vertex and eye: how far it follows that eye's upper lid (0–1), and the lid's travel there (px along the face's down axis). */
  lidFollow: Float32Array;
  lidTravel: Float32Array;
  faceHeight: number;
}

/**
 * Builds the rig of a face: `points` are the landmarks in the still picture's pixels (at least
 * the 468 mesh points), `size` the still picture, `boxHeight` the presenter's box height in the
 * same pixels.
 */
export function buildFaceRig(points: readonly Point[], size: { width: number; height: number }, boxHeight: number): FaceRig {
  const mean = (ids: readonly number[]) => {
    let x = 0;
    let y = 0;
    for (const i of ids) [x, y] = [x + points[i]![0], y + points[i]![1]];
    return [x / ids.length, y / ids.length] as const;
  };
  const eyeR = mean([...EYES[0]!.upper, ...EYES[0]!.lower]);
  const eyeL = mean([...EYES[1]!.upper, ...EYES[1]!.lower]);
  const len = Math.hypot(eyeL[0] - eyeR[0], eyeL[1] - eyeR[1]) || 1;
  const ux = [(eyeL[0] - eyeR[0]) / len, (eyeL[1] - eyeR[1]) / len] as const;
  const uy = [-ux[1], ux[0]] as const;
  const lipTop = points[LIP_TOP]!;
  const lipBottom = points[LIP_BOTTOM]!;
  const center: Point = [(lipTop[0] + lipBottom[0]) / 2, (lipTop[1] + lipBottom[1]) / 2];
  const chin = points[CHIN]!;
  const forehead = points[FOREHEAD]!;
  const faceHeight = Math.abs((chin[0] - forehead[0]) * uy[0] + (chin[1] - forehead[1]) * uy[1]);
  const F = faceHeight;

  // Vertices: the mesh, then two rings around its outline.
  const rest = new Float64Array(WARP_VERTICES * 2);
  for (let i = 0; i < MESH_POINTS; i++) [rest[2 * i], rest[2 * i + 1]] = points[i]!;
  let cx = 0;
  let cy = 0;
  for (const i of FACE_OVAL) [cx, cy] = [cx + points[i]![0] / RING, cy + points[i]![1] / RING];
  const head = new Float32Array(WARP_VERTICES);
  head.fill(1, 0, MESH_POINTS);
  const onEdge = (x: number, y: number) => x <= 1 || y <= 1 || x >= size.width - 1 || y >= size.height - 1;
  FACE_OVAL.forEach((o, k) => {
    for (const [ring, scale, weight] of [[0, INNER_RING, 0.5], [1, OUTER_RING, 0]] as const) {
      const v = MESH_POINTS + ring * RING + k;
      const x = Math.min(size.width, Math.max(0, cx + (points[o]![0] - cx) * scale));
      const y = Math.min(size.height, Math.max(0, cy + (points[o]![1] - cy) * scale));
      rest[2 * v] = x;
      rest[2 * v + 1] = y;
      // A point held at the picture's edge must not move off it.
      head[v] = onEdge(x, y) ? 0 : weight;
    }
  });
  const tris: number[] = [...MESH_TRIANGLES];
  for (let k = 0; k < RING; k++) {
    const k1 = (k + 1) % RING;
    const [o0, o1] = [FACE_OVAL[k]!, FACE_OVAL[k1]!];
    const [m0, m1] = [MESH_POINTS + k, MESH_POINTS + k1];
    const [r0, r1] = [MESH_POINTS + RING + k, MESH_POINTS + RING + k1];
    tris.push(o0, o1, m1, o0, m1, m0, m0, m1, r1, m0, r1, r0);
  }

  // Face coordinates around the mouth's centre.
  const fa = new Float64Array(WARP_VERTICES);
  const fb = new Float64Array(WARP_VERTICES);
  for (let v = 0; v < WARP_VERTICES; v++) {
    const dx = rest[2 * v]! - center[0];
    const dy = rest[2 * v + 1]! - center[1];
    fa[v] = dx * ux[0] + dy * ux[1];
    fb[v] = dx * uy[0] + dy * uy[1];
  }
  const halfWidth = Math.abs(fa[291]! - fa[61]!) / 2 || 1;
  const upper = contour(UPPER_INNER, fa, fb);
  const lower = contour(LOWER_INNER, fa, fb);
  const restGap = Math.max(0, fb[LIP_BOTTOM]! - fb[LIP_TOP]!);

  // The jaw carries the lower lip and the chin, fading out towards the cheeks and upwards.
  const jaw = new Float32Array(WARP_VERTICES);
  const upperLip = new Float32Array(WARP_VERTICES);
  const corner = new Float32Array(WARP_VERTICES);
  const upperSet = new Set<number>([...UPPER_INNER, ...UPPER_OUTER]);
  const lowerSet = new Set<number>([...LOWER_INNER, ...LOWER_OUTER]);
  const cornerSet = new Set<number>([61, 291, 78, 308]);
  for (let v = 0; v < WARP_VERTICES; v++) {
    const a = Math.abs(fa[v]!);
    const b = fb[v]!;
    const across = 1 - smoothstep(1.1 * halfWidth, 2.6 * halfWidth, a);
    let w = smoothstep(-0.01 * F, 0.03 * F, b) * across;
    if (cornerSet.has(v)) w = 0.4;
    else if (upperSet.has(v)) w = 0;
    else if (lowerSet.has(v)) w = 1;
    // The rings follow the chin less and less.
    if (v >= MESH_POINTS) w *= v < MESH_POINTS + RING ? 0.45 : 0;
    jaw[v] = w;
    upperLip[v] = upperSet.has(v) && !cornerSet.has(v) ? 1 : 0;
    // The lips' corners and the skin around them move sideways for wide and round shapes.
    const near = Math.exp(-(((a - halfWidth) / (0.55 * halfWidth)) ** 2)) * Math.exp(-((b / (0.12 * F)) ** 2));
    corner[v] = v >= MESH_POINTS ? 0 : near;
  }

  // Eyelids: the upper lid comes down to the lower one; the skin above it follows, less and less.
  const lidFollow = new Float32Array(WARP_VERTICES * 2);
  const lidTravel = new Float32Array(WARP_VERTICES * 2);
  EYES.forEach((eye, e) => {
    const up = contour(eye.upper, fa, fb);
    const lo = contour(eye.lower, fa, fb);
    const a0 = up.a[0]!;
    const a1 = up.a[up.a.length - 1]!;
    const half = (a1 - a0) / 2;
    const mid = (a0 + a1) / 2;
    const gapAt = (a: number) => Math.max(0, interp(lo.a, lo.b, a) - interp(up.a, up.b, a));
    const zone = 0.09 * F;
    const upperIds = new Set(eye.upper.slice(1, -1));
    for (let v = 0; v < MESH_POINTS; v++) {
      const a = fa[v]!;
      const across = 1 - smoothstep(0.85, 1.2, Math.abs(a - mid) / half);
      if (across <= 0) continue;
      const lid = interp(up.a, up.b, a);
      let follow = 0;
      if (upperIds.has(v)) follow = 1;
      else if (fb[v]! < lid - 0.5 && fb[v]! > lid - zone) follow = 0.85 * (1 - smoothstep(0, 1, (lid - fb[v]!) / zone));
      follow *= across;
      if (follow <= 0) continue;
      lidFollow[2 * v + e] = follow;
      lidTravel[2 * v + e] = gapAt(a) * LID_TRAVEL;
    }
  });

  // The region that can change: the outer ring's box, in whole pixels inside the picture.
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let v = 0; v < WARP_VERTICES; v++) {
    x0 = Math.min(x0, rest[2 * v]!);
    y0 = Math.min(y0, rest[2 * v + 1]!);
    x1 = Math.max(x1, rest[2 * v]!);
    y1 = Math.max(y1, rest[2 * v + 1]!);
  }
  const rx = Math.max(0, Math.floor(x0) - 1);
  const ry = Math.max(0, Math.floor(y0) - 1);
  const region = { x: rx, y: ry, width: Math.min(size.width, Math.ceil(x1) + 1) - rx, height: Math.min(size.height, Math.ceil(y1) + 1) - ry };

  return {
    rest, triangles: Uint16Array.from(tris), region, unit: boxHeight / 480, ux, uy,
    pivot: [chin[0] + uy[0] * 0.25 * F, chin[1] + uy[1] * 0.25 * F],
    mouth: { center, halfWidth, restGap, upper, lower },
    fa, fb, head, jaw, upperLip, corner, lidFollow, lidTravel, faceHeight: F,
  };
}

/** The mesh's points moved for a pose (same layout as `rig.rest`). */
export function posePoints(rig: FaceRig, pose: FacePose, out: Float64Array = new Float64Array(rig.rest.length)): Float64Array {
  const { ux, uy, mouth, fa, fb } = rig;
  const open = Math.min(1, Math.max(0, pose.open));
  const lid = Math.min(1, Math.max(0, pose.lid));
  const maxGap = MAX_GAP * 2 * mouth.halfWidth;
  const width = LIP_WIDTH[pose.viseme] * mouth.halfWidth;
  // Round shapes open less at the sides: the opening's profile across the mouth.
  const round = pose.viseme === 'o' || pose.viseme === 'u';
  const profile = (a: number) => {
    const t = Math.min(1, Math.abs(a) / mouth.halfWidth);
    return round ? Math.sqrt(Math.max(0, 1 - t * t)) : Math.sqrt(Math.max(0, 1 - t ** 4));
  };
  // How far the lower lip moves at `a` so the gap there becomes the pose's (negative: closing).
  const lipShift = (a: number) => open * maxGap * profile(a) - (interp(mouth.lower.a, mouth.lower.b, a) - interp(mouth.upper.a, mouth.upper.b, a));
  const centerShift = lipShift(0);
  const F = rig.faceHeight;
  const roll = pose.headRoll;
  const cos = Math.cos(roll);
  const sin = Math.sin(roll);
  const tx = pose.headDx * rig.unit;
  const ty = pose.headDy * rig.unit;
  const [px, py] = rig.pivot;
  for (let v = 0; v < rig.rest.length / 2; v++) {
    let x = rig.rest[2 * v]!;
    let y = rig.rest[2 * v + 1]!;
    let db = 0;
    let da = 0;
    const jw = rig.jaw[v]!;
    if (jw > 0) {
      const a = Math.max(-mouth.halfWidth, Math.min(mouth.halfWidth, fa[v]!));
      const t = smoothstep(0.04 * F, 0.16 * F, fb[v]!);
      db += jw * ((1 - t) * lipShift(a) + t * centerShift);
    }
    if (rig.upperLip[v]! > 0) db -= 0.12 * open * maxGap * profile(fa[v]!);
    const cw = rig.corner[v]!;
    if (cw > 0.01) da += Math.sign(fa[v]!) * width * cw;
    for (let e = 0; e < 2; e++) {
      const f = rig.lidFollow[2 * v + e]!;
      if (f > 0) db += lid * f * rig.lidTravel[2 * v + e]!;
    }
    x += da * ux[0] + db * uy[0];
    y += da * ux[1] + db * uy[1];
    const hw = rig.head[v]!;
    if (hw > 0) {
      const rx = px + (x - px) * cos - (y - py) * sin + tx;
      const ry = py + (x - px) * sin + (y - py) * cos + ty;
      x += hw * (rx - x);
      y += hw * (ry - y);
    }
    out[2 * v] = x;
    out[2 * v + 1] = y;
  }
  return out;
}

/** The still picture's pixels inside `box` (which may reach past the picture: transparent there) into `out`, `box.width` per row. */
export function stillBox(src: Int32Array, srcWidth: number, srcHeight: number, box: Rect, out: Int32Array): void {
  for (let y = 0; y < box.height; y++) {
    const sy = box.y + y;
    const row = y * box.width;
    if (sy < 0 || sy >= srcHeight) {
      out.fill(0, row, row + box.width);
      continue;
    }
    const x0 = Math.max(0, box.x);
    const x1 = Math.min(srcWidth, box.x + box.width);
    if (x0 > box.x) out.fill(0, row, row + Math.min(box.width, x0 - box.x));
    if (x1 > x0) out.set(src.subarray(sy * srcWidth + x0, sy * srcWidth + x1), row + x0 - box.x);
    if (x1 < box.x + box.width) out.fill(0, row + Math.max(0, x1 - box.x), row + box.width);
  }
}

/** A box of pixels by its edges (x1, y1 exclusive). */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Redraws the triangles moved from `rig.rest` to `moved`: `src` is the still picture's pixels
 * (`srcWidth` × `srcHeight`), `out` its pixels inside `box` (whole pixels of the still picture,
 * `box.width` per row; default the rig's region). Pixels are 32-bit words of any four 8-bit
 * channels (RGBA, or the engine's YUVA): the sampling treats each channel alike. Pixels no
 * moved triangle covers show the still picture.
 *
 * With `prev` (the points `out` was last drawn with by this function, over the same still) only
 * the box around the triangles that moved since (where they were and where they are) is drawn
 * again. Returns the box of the pixels drawn (box pixels), or null.
 */
export function warpRegion(
  rig: FaceRig, moved: Float64Array, src: Int32Array, srcWidth: number, srcHeight: number, out: Int32Array, box: Rect = rig.region, prev: Float64Array | null = null,
): PixelBox | null {
  const { rest, triangles } = rig;
  const bx = box.x;
  const by = box.y;
  const bw = box.width | 0;
  const bh = box.height | 0;
  const W = srcWidth | 0;
  const maxX = srcWidth - 1;
  const maxY = srcHeight - 1;
  // What is drawn again (box pixels, x1 and y1 exclusive): the region, or what moved in it.
  const R = rig.region;
  let cx0 = Math.max(0, R.x - bx) | 0;
  let cy0 = Math.max(0, R.y - by) | 0;
  let cx1 = Math.min(bw, R.x + R.width - bx) | 0;
  let cy1 = Math.min(bh, R.y + R.height - by) | 0;
  if (cx1 <= cx0 || cy1 <= cy0) return null;
  if (prev) {
    cx0 = bw;
    cy0 = bh;
    cx1 = 0;
    cy1 = 0;
    for (let t = 0; t < triangles.length; t += 3) {
      const i0 = triangles[t]! * 2;
      const i1 = triangles[t + 1]! * 2;
      const i2 = triangles[t + 2]! * 2;
      if (moved[i0] === prev[i0] && moved[i0 + 1] === prev[i0 + 1] && moved[i1] === prev[i1] && moved[i1 + 1] === prev[i1 + 1] && moved[i2] === prev[i2] && moved[i2 + 1] === prev[i2 + 1]) continue;
      // Where it is and where it was.
      cx0 = Math.min(cx0, Math.floor(Math.min(moved[i0]!, moved[i1]!, moved[i2]!, prev[i0]!, prev[i1]!, prev[i2]!) - bx));
      cy0 = Math.min(cy0, Math.floor(Math.min(moved[i0 + 1]!, moved[i1 + 1]!, moved[i2 + 1]!, prev[i0 + 1]!, prev[i1 + 1]!, prev[i2 + 1]!) - by));
      cx1 = Math.max(cx1, Math.ceil(Math.max(moved[i0]!, moved[i1]!, moved[i2]!, prev[i0]!, prev[i1]!, prev[i2]!) - bx) + 1);
      cy1 = Math.max(cy1, Math.ceil(Math.max(moved[i0 + 1]!, moved[i1 + 1]!, moved[i2 + 1]!, prev[i0 + 1]!, prev[i1 + 1]!, prev[i2 + 1]!) - by) + 1);
    }
    cx0 = Math.max(0, cx0) | 0;
    cy0 = Math.max(0, cy0) | 0;
    cx1 = Math.min(bw, cx1) | 0;
    cy1 = Math.min(bh, cy1) | 0;
    if (cx1 <= cx0 || cy1 <= cy0) return null;
  }
  const clip = { x: bx + cx0, y: by + cy0, width: cx1 - cx0, height: cy1 - cy0 };
  // The still picture first, in rows of `out`.
  for (let y = 0; y < clip.height; y++) {
    const sy = clip.y + y;
    const row = (cy0 + y) * bw + cx0;
    const x0 = Math.max(0, clip.x);
    const x1 = Math.min(srcWidth, clip.x + clip.width);
    if (sy < 0 || sy >= srcHeight || x1 <= x0) {
      out.fill(0, row, row + clip.width);
      continue;
    }
    if (x0 > clip.x) out.fill(0, row, row + x0 - clip.x);
    out.set(src.subarray(sy * srcWidth + x0, sy * srcWidth + x1), row + x0 - clip.x);
    if (x1 < clip.x + clip.width) out.fill(0, row + x1 - clip.x, row + clip.width);
  }
  for (let t = 0; t < triangles.length; t += 3) {
    const i0 = triangles[t]! * 2;
    const i1 = triangles[t + 1]! * 2;
    const i2 = triangles[t + 2]! * 2;
    const m0x = moved[i0]!, m0y = moved[i0 + 1]!;
    const m1x = moved[i1]!, m1y = moved[i1 + 1]!;
    const m2x = moved[i2]!, m2y = moved[i2 + 1]!;
    const s0x = rest[i0]!, s0y = rest[i0 + 1]!;
    const s1x = rest[i1]!, s1y = rest[i1 + 1]!;
    const s2x = rest[i2]!, s2y = rest[i2 + 1]!;
    // Away from what is drawn again.
    if (Math.max(m0y, m1y, m2y) - by < cy0 - 1 || Math.min(m0y, m1y, m2y) - by > cy1 + 1 || Math.max(m0x, m1x, m2x) - bx < cx0 - 1 || Math.min(m0x, m1x, m2x) - bx > cx1 + 1) continue;
    // At rest: the still picture already.
    if (Math.abs(m0x - s0x) + Math.abs(m0y - s0y) + Math.abs(m1x - s1x) + Math.abs(m1y - s1y) + Math.abs(m2x - s2x) + Math.abs(m2y - s2y) < 0.01) continue;
    // Destination (box pixels).
    const x0 = m0x - bx, y0 = m0y - by;
    const x1 = m1x - bx, y1 = m1y - by;
    const x2 = m2x - bx, y2 = m2y - by;
    const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (!(Math.abs(area) >= 1e-9)) continue;
    const inv = 1 / area;
    // Source position as an affine function of the destination pixel's centre.
    const ax = ((s1x - s0x) * (y2 - y0) - (s2x - s0x) * (y1 - y0)) * inv;
    const bxs = ((s2x - s0x) * (x1 - x0) - (s1x - s0x) * (x2 - x0)) * inv;
    const ay = ((s1y - s0y) * (y2 - y0) - (s2y - s0y) * (y1 - y0)) * inv;
    const bys = ((s2y - s0y) * (x1 - x0) - (s1y - s0y) * (x2 - x0)) * inv;
    // The vertices top to bottom (ties left to right), so an edge two triangles share is walked
    // from the same end by both, giving the same x on every row: no pixel centre on it is missed.
    let xa = x0, ya = y0, xb = x1, yb = y1, xc = x2, yc = y2;
    if (yb < ya || (yb === ya && xb < xa)) [xa, ya, xb, yb] = [xb, yb, xa, ya];
    if (yc < yb || (yc === yb && xc < xb)) [xb, yb, xc, yc] = [xc, yc, xb, yb];
    if (yb < ya || (yb === ya && xb < xa)) [xa, ya, xb, yb] = [xb, yb, xa, ya];
    const kac = (xc - xa) / (yc - ya);
    const kab = yb > ya ? (xb - xa) / (yb - ya) : 0;
    const kbc = yc > yb ? (xc - xb) / (yc - yb) : 0;
    const rowMin = Math.max(cy0, Math.ceil(ya - 0.5 - EDGE_EPS));
    const rowMax = Math.min(cy1 - 1, Math.floor(yc - 0.5 + EDGE_EPS));
    if (rowMin > rowMax) continue;
    // Every source point of the triangle has its four neighbours inside the picture: no clamping.
    const inside =
      Math.min(s0x, s1x, s2x) >= 1 && Math.min(s0y, s1y, s2y) >= 1 && Math.max(s0x, s1x, s2x) < maxX - 1 && Math.max(s0y, s1y, s2y) < maxY - 1;
    const dx = Math.round(ax * 65536) | 0;
    const dy = Math.round(ay * 65536) | 0;
    for (let py = rowMin; py <= rowMax; py++) {
      const cy = py + 0.5;
      const xl = xa + (cy - ya) * kac;
      const xs = cy < yb ? xa + (cy - ya) * kab : xb + (cy - yb) * kbc;
      const lo = Math.max(cx0, Math.ceil((xl < xs ? xl : xs) - 0.5 - EDGE_EPS));
      const hi = Math.min(cx1 - 1, Math.floor((xl < xs ? xs : xl) - 0.5 + EDGE_EPS));
      if (lo > hi) continue;
      // The source point of the span's first pixel (pixel centres at +0.5).
      const sx = s0x + ax * (lo + 0.5 - x0) + bxs * (cy - y0) - 0.5;
      const sy = s0y + ay * (lo + 0.5 - x0) + bys * (cy - y0) - 0.5;
      const o = (py * bw + lo) | 0;
      if (inside) spanInside(src, W, out, o, hi - lo + 1, Math.round(sx * 65536) | 0, Math.round(sy * 65536) | 0, dx, dy);
      else spanClamped(src, W, maxX, maxY, out, o, hi - lo + 1, sx, sy, ax, ay);
    }
  }
  // Whole numbers as V8 keeps them: a field that held a double once changes the object's shape.
  return { x0: cx0 | 0, y0: cy0 | 0, x1: cx1 | 0, y1: cy1 | 0 };
}

// Bilinear sampling in fixed point: 7-bit weights, across then down, two channels at a time
// (bytes 0 and 2, then 1 and 3, each in a 16-bit lane of one word: 255 · 128 fits a lane, and the
// whole word stays a small integer, which V8 keeps unboxed).

/** A span whose every source point has all four neighbours inside the picture. */
function spanInside(src: Int32Array, W: number, out: Int32Array, o: number, n: number, sx: number, sy: number, dx: number, dy: number): void {
  for (let k = 0; k < n; k++, o++, sx += dx, sy += dy) {
    const fx = (sx >> 9) & 127;
    const fy = (sy >> 9) & 127;
    const gx = 128 - fx;
    const gy = 128 - fy;
    const p = (sy >> 16) * W + (sx >> 16);
    const a = src[p]!, b = src[p + 1]!, c = src[p + W]!, d = src[p + W + 1]!;
    const topE = (((a & LANES) * gx + (b & LANES) * fx) >> 7) & LANES;
    const botE = (((c & LANES) * gx + (d & LANES) * fx) >> 7) & LANES;
    const topO = ((((a >>> 8) & LANES) * gx + ((b >>> 8) & LANES) * fx) >> 7) & LANES;
    const botO = ((((c >>> 8) & LANES) * gx + ((d >>> 8) & LANES) * fx) >> 7) & LANES;
    out[o] = (((topE * gy + botE * fy) >> 7) & LANES) | ((((topO * gy + botO * fy) >> 7) & LANES) << 8);
  }
}

/** A span at the picture's edge: each neighbour clamped to the picture. */
function spanClamped(src: Int32Array, W: number, maxX: number, maxY: number, out: Int32Array, o: number, n: number, sx: number, sy: number, ax: number, ay: number): void {
  for (let k = 0; k < n; k++, o++, sx += ax, sy += ay) {
    const cx = sx < 0 ? 0 : sx > maxX ? maxX : sx;
    const cy = sy < 0 ? 0 : sy > maxY ? maxY : sy;
    const ix = cx | 0;
    const iy = cy | 0;
    const fx = ((cx - ix) * 128) | 0;
    const fy = ((cy - iy) * 128) | 0;
    const gx = 128 - fx;
    const gy = 128 - fy;
    const p = iy * W + ix;
    const q = ix < maxX ? p + 1 : p;
    const r = iy < maxY ? p + W : p;
    const rq = iy < maxY ? q + W : q;
    const a = src[p]!, b = src[q]!, c = src[r]!, d = src[rq]!;
    const topE = (((a & LANES) * gx + (b & LANES) * fx) >> 7) & LANES;
    const botE = (((c & LANES) * gx + (d & LANES) * fx) >> 7) & LANES;
    const topO = ((((a >>> 8) & LANES) * gx + ((b >>> 8) & LANES) * fx) >> 7) & LANES;
    const botO = ((((c >>> 8) & LANES) * gx + ((d >>> 8) & LANES) * fx) >> 7) & LANES;
    out[o] = (((topE * gy + botE * fy) >> 7) & LANES) | ((((topO * gy + botO * fy) >> 7) & LANES) << 8);
  }
}
