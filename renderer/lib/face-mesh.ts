// MediaPipe Face Mesh for the renderer. Its WebAssembly glue makes functions with `new Function`,
// which the app's CSP never allows, so it runs in a hidden frame of its own
// (renderer/face-mesh/runner.html, served under mediapipe/face_mesh/ with its own CSP) and
// answers by postMessage. A portrait's faces are checked as the server and the rig need them,
// each problem in words.
import { z } from 'zod';
import { PRESENTER_LIMITS } from '../../shared/contract/index.js';
import { EYES, faceBox, MESH_POINTS } from '../../shared/scene/face-mesh.js';

const RUNNER = 'mediapipe/face_mesh/runner.html';
/** The model loads once per frame; a photo is answered in well under this on a slow machine. */
const ANSWER_MS = 120_000;

const Answer = z.union([
  z.object({ id: z.number(), faces: z.array(z.array(z.tuple([z.number(), z.number(), z.number()]))) }),
  z.object({ id: z.number(), error: z.string() }),
]);

let frame: Promise<HTMLIFrameElement> | null = null;
let nextId = 1;

function runner(): Promise<HTMLIFrameElement> {
  frame ??= new Promise<HTMLIFrameElement>((ok, fail) => {
    const f = document.createElement('iframe');
    f.src = RUNNER;
    f.title = 'Face finder';
    f.hidden = true;
    const onReady = (e: MessageEvent) => {
      if (e.source !== f.contentWindow || e.origin !== location.origin || !(e.data as { ready?: unknown })?.ready) return;
      removeEventListener('message', onReady);
      ok(f);
    };
    addEventListener('message', onReady);
    f.onerror = () => {
      frame = null;
      fail(new Error('the face finder could not be loaded'));
    };
    document.body.append(f);
  });
  return frame;
}

/** Face Mesh's faces in an image: each face's points as [x, y, z], x and y as fractions of the image. */
async function detect(image: HTMLImageElement): Promise<[number, number, number][][]> {
  const f = await runner();
  const bitmap = await createImageBitmap(image);
  const id = nextId++;
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => done(() => fail(new Error('the face finder did not answer'))), ANSWER_MS);
    const onAnswer = (e: MessageEvent) => {
      if (e.source !== f.contentWindow || e.origin !== location.origin) return;
      const a = Answer.safeParse(e.data);
      if (!a.success || a.data.id !== id) return;
      done(() => ('error' in a.data ? fail(new Error(a.data.error)) : ok(a.data.faces)));
    };
    const done = (then: () => void) => {
      clearTimeout(timer);
      removeEventListener('message', onAnswer);
      then();
    };
    addEventListener('message', onAnswer);
    f.contentWindow!.postMessage({ id, image: bitmap }, location.origin, [bitmap]);
  });
}

export type FaceCheck = { ok: true; landmarks: [number, number, number][] } | { ok: false; message: string };

/** Finds the face of a portrait and checks it can become a presenter. */
export async function findFace(image: HTMLImageElement): Promise<FaceCheck> {
  const faces = await detect(image);
  if (faces.length === 0) return { ok: false, message: 'No face was found in this photo. Use a photo where one face looks at the camera.' };
  if (faces.length > 1) return { ok: false, message: `This photo shows ${faces.length} faces. Use a photo of one person.` };
  const landmarks = faces[0]!;
  const px = landmarks.map(([x, y]) => [x * image.naturalWidth, y * image.naturalHeight] as const);
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
