// The photo rig's warp closes and opens the portrait's own mouth without squeezing the skin
// under it into a seam: beside a smiling photo's closed mouth a band of skin was once pressed
// into a row or two: a hard-edged light patch under the mouth's corner.
import { readFileSync } from 'node:fs';
import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { outputSize } from '../../../shared/contract/index.js';
import { computeLayout, NEUTRAL_POSE, VISEMES } from '../../../shared/scene/index.js';
import { photoRig } from '../../../shared/scene/photo-rig.js';
import { makeCanvasNode } from '../frames/rigs.js';
import { toPixels } from '../../../shared/scene/face-mesh.js';
import { buildFaceRig, posePoints, warpRegion, type FaceRig } from '../../../shared/scene/face-warp.js';

const FIXTURES = new URL('../../../tests/fixtures/', import.meta.url);
const marks = z.object({ landmarks: z.array(z.array(z.number())) }).parse(JSON.parse(readFileSync(new URL('astronaut.landmarks.json', FIXTURES), 'utf8')));

/** The lips' outer edge, corner to corner along the upper lip and back along the lower. */
const LIPS_OUTER = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146];

function triangleArea(p: Float64Array, a: number, b: number, c: number): number {
  return ((p[2 * b]! - p[2 * a]!) * (p[2 * c + 1]! - p[2 * a + 1]!) - (p[2 * c]! - p[2 * a]!) * (p[2 * b + 1]! - p[2 * a + 1]!)) / 2;
}

/** Mesh points on or inside the lips' outer edge (at rest). */
function lipPoints(rig: FaceRig): Set<number> {
  const { rest } = rig;
  const inside = (x: number, y: number) => {
    let c = false;
    for (let i = 0, j = LIPS_OUTER.length - 1; i < LIPS_OUTER.length; j = i++) {
      const [xi, yi, xj, yj] = [rest[2 * LIPS_OUTER[i]!]!, rest[2 * LIPS_OUTER[i]! + 1]!, rest[2 * LIPS_OUTER[j]!]!, rest[2 * LIPS_OUTER[j]! + 1]!];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
    }
    return c;
  };
  const out = new Set<number>(LIPS_OUTER);
  for (let v = 0; v < rest.length / 2; v++) if (inside(rest[2 * v]!, rest[2 * v + 1]!)) out.add(v);
  return out;
}

describe('the photo rig\'s jaw', () => {
  const rig = buildFaceRig(toPixels(marks.landmarks, 512, 512), { width: 512, height: 512 }, 512);

  it('keeps every triangle of skin around the mouth at least a third of its size, for every mouth shape and opening', () => {
    const lips = lipPoints(rig);
    const T = rig.triangles;
    let worst = Infinity;
    for (const viseme of VISEMES) {
      for (const open of [0, 0.25, 0.5, 0.75, 1]) {
        const moved = posePoints(rig, { ...NEUTRAL_POSE, viseme, open });
        for (let t = 0; t < T.length; t += 3) {
          const [a, b, c] = [T[t]!, T[t + 1]!, T[t + 2]!];
          if (lips.has(a) || lips.has(b) || lips.has(c)) continue;
          worst = Math.min(worst, triangleArea(moved, a, b, c) / triangleArea(rig.rest, a, b, c));
        }
      }
    }
    expect(worst).toBeGreaterThan(0.35);
  });

  it('draws no hard edge into the skin under a smiling photo\'s closed mouth (9:16 720p, the face magnified)', async () => {
    const size = outputSize('9:16', 720);
    const portrait = await loadImage(readFileSync(new URL('astronaut.jpg', FIXTURES)));
    const photo = photoRig({ id: 'p', portrait, width: portrait.width, height: portrait.height, landmarks: marks.landmarks, mask: null }, makeCanvasNode);
    const layout = computeLayout('social-short', { aspectRatio: '9:16', avatar: { scale: 0.55, x: 0.5, y: 0.45 } }, size, photo.geometry);
    const face = photo.face(layout);
    const { rig: fr } = face;
    const R = fr.region;
    const out = new Int32Array(R.width * R.height);
    const luma = (w: number) => 0.299 * (w & 255) + 0.587 * ((w >>> 8) & 255) + 0.114 * ((w >>> 16) & 255);
    // Under the mouth's corners, where the patch was.
    const { center, halfWidth } = fr.mouth;
    const F = fr.faceHeight;
    const y0 = Math.round(center[1] + 0.06 * F);
    const y1 = Math.round(center[1] + 0.2 * F);
    /** The steepest step in luma between two rows, averaged over 8 pixels across: a seam, not a speck. */
    const seam = (at: (x: number, y: number) => number) => {
      let most = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = Math.round(center[0] - 1.4 * halfWidth); x + 8 <= center[0] + 1.4 * halfWidth; x++) {
          if (Math.abs(x + 4 - center[0]) < 0.6 * halfWidth) continue;
          let sum = 0;
          for (let k = 0; k < 8; k++) sum += luma(at(x + k, y + 1)) - luma(at(x + k, y));
          most = Math.max(most, Math.abs(sum) / 8);
        }
      }
      return most;
    };
    const still = seam((x, y) => face.still[y * face.width + x]!);
    for (const viseme of ['mbp', 'o', 'u'] as const) {
      warpRegion(fr, posePoints(fr, { ...NEUTRAL_POSE, viseme, open: 0 }), face.still, face.width, face.height, out);
      const warped = seam((x, y) => out[(y - R.y) * R.width + x - R.x]!);
      expect(warped, viseme).toBeLessThan(1.5 * still);
    }
  });
});
