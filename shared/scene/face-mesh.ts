// Facts of MediaPipe Face Mesh's 468 (+10 iris) points that the photo rig and the server's
// checks share: the mesh's triangles (resources/face-mesh/triangles.json, taken from the
// package's FACEMESH_TESSELATION by tools/engine/face-landmarks.ts), the named contours, and the
// face's box and the presenter's crop of a portrait.
import { z } from 'zod';
import bundled from '../../resources/face-mesh/triangles.json' with { type: 'json' };
import type { Rect } from './types.js';

/** The mesh's points (the iris points 468–477 are not part of the triangulation). */
export const MESH_POINTS = 468;

/** Face Mesh's triangles as point indices, three per triangle. */
export const MESH_TRIANGLES: readonly number[] = z
  .object({ triangles: z.array(z.number().int().min(0).max(MESH_POINTS - 1)).refine((a) => a.length % 3 === 0) })
  .parse(bundled).triangles;

/** The face's outline, in order around the face (forehead top first, then the image's right side). */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132,
  93, 234, 127, 162, 21, 54, 103, 67, 109,
] as const;

/** The lips' inner edge, in order from the image-left corner along the upper lip and back along the lower. */
export const LIPS_INNER = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95] as const;
export const UPPER_LIP = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 191, 80, 81, 82, 13, 312, 311, 310, 415, 78, 308] as const;
export const LOWER_LIP_INNER = [324, 318, 402, 317, 14, 87, 178, 88, 95] as const;
export const MOUTH_CORNERS = [61, 291] as const;
export const LIP_TOP = 13;
export const LIP_BOTTOM = 14;
export const CHIN = 152;
export const FOREHEAD = 10;

/** One eye: its upper and lower lid from the outer to the inner corner (both ends shared). */
export interface EyeContour {
  upper: readonly number[];
  lower: readonly number[];
}
/** The subject's right eye (the image's left) and left eye. */
export const EYES: readonly EyeContour[] = [
  { upper: [33, 246, 161, 160, 159, 158, 157, 173, 133], lower: [33, 7, 163, 144, 145, 153, 154, 155, 133] },
  { upper: [263, 466, 388, 387, 386, 385, 384, 398, 362], lower: [263, 249, 390, 373, 374, 380, 381, 382, 362] },
];

export type Point = readonly [number, number];

/** Landmarks in image pixels (x and y of each point as fractions of the image). */
export function toPixels(landmarks: readonly (readonly (number | undefined)[])[], width: number, height: number): Point[] {
  return landmarks.map((p) => [p[0]! * width, p[1]! * height] as const);
}

/** The box of the mesh's points (image pixels). */
export function faceBox(points: readonly Point[]): Rect {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < Math.min(points.length, MESH_POINTS); i++) {
    const [x, y] = points[i]!;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The crop's height in face heights, how far above the mesh it starts, and its aspect (width / height). */
const CROP_FACES = 3.3;
const CROP_ABOVE = 0.75;
export const CROP_ASPECT = 5 / 6;

/**
 * The part of the portrait the presenter shows (image pixels, whole): head and shoulders around
 * the face, moved inside the image where it would pass an edge, smaller where the image is.
 */
export function portraitCrop(points: readonly Point[], imageWidth: number, imageHeight: number): Rect {
  const f = faceBox(points);
  let h = f.height * CROP_FACES;
  let w = h * CROP_ASPECT;
  const fit = Math.min(1, imageWidth / w, imageHeight / h);
  w = Math.floor(w * fit);
  h = Math.floor(h * fit);
  const cx = f.x + f.width / 2;
  const x = Math.round(Math.min(Math.max(0, cx - w / 2), imageWidth - w));
  const y = Math.round(Math.min(Math.max(0, f.y - f.height * CROP_ABOVE), imageHeight - h));
  return { x, y, width: w, height: h };
}
