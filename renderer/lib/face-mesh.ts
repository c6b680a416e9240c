// MediaPipe Face Mesh in the renderer: its script, model and WebAssembly are served beside the
// page (vite.config.ts copies them from the npm package to mediapipe/face_mesh/), loaded once.
// A portrait's faces are checked as the server and the rig need them, each problem in words.
import { PRESENTER_LIMITS } from '../../shared/contract/index.js';
import { EYES, faceBox, MESH_POINTS } from '../../shared/scene/face-mesh.js';

const BASE = 'mediapipe/face_mesh/';

interface FaceMeshSolution {
  setOptions(o: object): void;
  onResults(cb: (r: { multiFaceLandmarks?: { x: number; y: number; z: number }[][] }) => void): void;
  initialize(): Promise<void>;
  send(i: { image: HTMLImageElement | HTMLCanvasElement }): Promise<void>;
}
type FaceMeshClass = new (c: { locateFile: (f: string) => string }) => FaceMeshSolution;

let loading: Promise<FaceMeshClass> | null = null;

function loadScript(): Promise<FaceMeshClass> {
  loading ??= new Promise<FaceMeshClass>((ok, fail) => {
    const script = document.createElement('script');
    script.src = `${BASE}face_mesh.js`;
    script.onload = () => {
      // face_mesh.js is a classic script: it sets the global FaceMesh.
      const cls = (globalThis as unknown as { FaceMesh?: FaceMeshClass }).FaceMesh;
      if (cls) ok(cls);
      else fail(new Error('the face finder did not load'));
    };
    script.onerror = () => {
      loading = null;
      fail(new Error('the face finder could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

let solution: Promise<{ mesh: FaceMeshSolution; take: () => { x: number; y: number; z: number }[][] }> | null = null;

async function faceMesh() {
  solution ??= (async () => {
    const FaceMesh = await loadScript();
    const mesh = new FaceMesh({ locateFile: (f) => `${BASE}${f}` });
    mesh.setOptions({ maxNumFaces: 3, refineLandmarks: true, staticImageMode: true, minDetectionConfidence: 0.5 });
    let faces: { x: number; y: number; z: number }[][] = [];
    mesh.onResults((r) => {
      faces = r.multiFaceLandmarks ?? [];
    });
    await mesh.initialize();
    return { mesh, take: () => faces };
  })();
  return solution;
}

export type FaceCheck = { ok: true; landmarks: [number, number, number][] } | { ok: false; message: string };

/** Finds the face of a portrait and checks it can become a presenter. */
export async function findFace(image: HTMLImageElement): Promise<FaceCheck> {
  const { mesh, take } = await faceMesh();
  await mesh.send({ image });
  const faces = take();
  if (faces.length === 0) return { ok: false, message: 'No face was found in this photo. Use a photo where one face looks at the camera.' };
  if (faces.length > 1) return { ok: false, message: `This photo shows ${faces.length} faces. Use a photo of one person.` };
  const landmarks = faces[0]!.map((p) => [p.x, p.y, p.z] as [number, number, number]);
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
