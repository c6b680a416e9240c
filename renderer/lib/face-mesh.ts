// MediaPipe Face Mesh for the renderer, in its hidden frame (mediapipe-frame.ts,
// renderer/face-mesh/runner.html). A portrait's faces are checked as the server and the rig
// need them, each problem in words.
import { z } from 'zod';
import { PRESENTER_LIMITS } from '../../shared/contract/index.js';
import { EYES, faceBox, MESH_POINTS } from '../../shared/scene/face-mesh.js';
import { askRunner } from './mediapipe-frame.js';

const Faces = z.object({ id: z.number(), faces: z.array(z.array(z.tuple([z.number(), z.number(), z.number()]))) });

/** Face Mesh's faces in an image: each face's points as [x, y, z], x and y as fractions of the image. */
async function detect(image: ImageBitmap): Promise<[number, number, number][][]> {
  return (await askRunner('runner.html', 'Face finder', image, Faces)).faces;
}

export type FaceCheck = { ok: true; landmarks: [number, number, number][] } | { ok: false; message: string };

/** Finds the face of a portrait and checks it can become a presenter. */
export async function findFace(image: ImageBitmap): Promise<FaceCheck> {
  const faces = await detect(image);
  if (faces.length === 0) return { ok: false, message: 'No face was found in this photo. Use a photo where one face looks at the camera.' };
  if (faces.length > 1) return { ok: false, message: `This photo shows ${faces.length} faces. Use a photo of one person.` };
  const landmarks = faces[0]!;
  const px = landmarks.map(([x, y]) => [x * image.width, y * image.height] as const);
  // Turned away: the nose tip sits far off the middle between the eyes' outer corners.
  const left = px[EYES[0]!.upper[0]!]![0];
  const right = px[EYES[1]!.upper[0]!]![0];
  const nose = px[1]![0];
  const across = (nose - left) / (right - left || 1);
  if (across < 0.3 || across > 0.7) return { ok: false, message: 'The face is turned away. Use a photo where the face looks at the camera.' };
  if (landmarks.some(([x, y]) => x < 0 || y < 0 || x > 1 || y > 1)) {
    return { ok: false, message: 'The face reaches past the edge of the photo. Use a photo with room around the head.' };
  }
  const height = Math.round(faceBox(px.slice(0, MESH_POINTS)).height);
  if (height < PRESENTER_LIMITS.minFacePixels) {
    return { ok: false, message: `The face is too small (${height} pixels tall; at least ${PRESENTER_LIMITS.minFacePixels} are needed). Use a larger or closer photo.` };
  }
  return { ok: true, landmarks };
}
