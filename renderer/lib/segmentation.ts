// MediaPipe Selfie Segmentation for the renderer, in its hidden frame (mediapipe-frame.ts,
// renderer/face-mesh/segment.html): the cut-out mask of a portrait, a PNG of its size whose
// alpha is the person (what the render API takes as a presenter's `maskAssetId`).
import { z } from 'zod';
import { askRunner } from './mediapipe-frame.js';

const Mask = z.object({ id: z.number(), mask: z.instanceof(Blob) });

/** The person's mask as a PNG; fails (with the reason) when no person can be cut out. */
export async function cutOut(image: ImageBitmap): Promise<Blob> {
  return (await askRunner('segment.html', 'Person cutter', image, Mask)).mask;
}
