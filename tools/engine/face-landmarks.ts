// Dev aid: MediaPipe Face Mesh's 478 points of a portrait, computed in headless Debian Chromium
// with the model that ships inside @mediapipe/face_mesh (the same code the app runs).
//   npx tsx tools/engine/face-landmarks.ts <image> [out.json]
// Prints (or writes) { width, height, landmarks: [[x, y, z]…] }, x and y as fractions of the image.
// `--mask out.png` also writes the person's cut-out mask (MediaPipe Selfie Segmentation, as a PNG
// of the portrait's size whose alpha is the person): the cut-out look's input.
// `--triangles out.json` also writes the mesh's triangles: the package's FACEMESH_TESSELATION
// lists each triangle as its three edges in a row (a→b, b→c, c→a), so every third edge's start
// point gives them (resources/face-mesh/triangles.json is written so).
import { readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { chromium } from 'playwright';

const args = process.argv.slice(2);
const maskAt = args.indexOf('--mask');
const maskOut = maskAt >= 0 ? args.splice(maskAt, 2)[1] : undefined;
const tessAt = args.indexOf('--triangles');
const tessOut = tessAt >= 0 ? args.splice(tessAt, 2)[1] : undefined;
const [image, out] = args;
if (!image) {
  console.error('usage: face-landmarks.ts <image> [out.json] [--triangles triangles.json]');
  process.exit(2);
}

const PKG = join(process.cwd(), 'node_modules/@mediapipe/face_mesh');
const SEGMENTATION = join(process.cwd(), 'node_modules/@mediapipe/selfie_segmentation');
const SEGMENT = `(async () => {
  const img = new Image();
  img.src = '/portrait';
  await img.decode();
  const seg = new SelfieSegmentation({ locateFile: (f) => '/ss/' + f });
  seg.setOptions({ modelSelection: 0 });
  let mask = null;
  seg.onResults((r) => { mask = r.segmentationMask; });
  await seg.initialize();
  await seg.send({ image: img });
  const c = document.createElement('canvas');
  c.width = img.naturalWidth;
  c.height = img.naturalHeight;
  const ctx = c.getContext('2d');
  ctx.drawImage(mask, 0, 0, c.width, c.height);
  // The mask's confidence is in its red channel: it becomes the alpha of a white image.
  const d = ctx.getImageData(0, 0, c.width, c.height);
  for (let i = 0; i < d.data.length; i += 4) { d.data[i + 3] = d.data[i]; d.data[i] = d.data[i + 1] = d.data[i + 2] = 255; }
  ctx.putImageData(d, 0, 0);
  return c.toDataURL('image/png');
})()`;
const ORIGIN = 'http://face-mesh.local';
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

// face_mesh.js is a classic script that sets the globals FaceMesh and FACEMESH_TESSELATION.
const FIND_FACES = `(async () => {
  const img = new Image();
  img.src = '/portrait';
  await img.decode();
  const mesh = new FaceMesh({ locateFile: (f) => '/mp/' + f });
  mesh.setOptions({ maxNumFaces: 2, refineLandmarks: true, staticImageMode: true, minDetectionConfidence: 0.5 });
  let faces = [];
  mesh.onResults((r) => { faces = r.multiFaceLandmarks || []; });
  await mesh.initialize();
  await mesh.send({ image: img });
  return { width: img.naturalWidth, height: img.naturalHeight, faces, tesselation: FACEMESH_TESSELATION };
})()`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.error('[page]', m.text()); });
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><script src="/mp/face_mesh.js"></script>' });
    if (path === '/portrait') return route.fulfill({ contentType: 'image/jpeg', body: readFileSync(image) });
    if (path.startsWith('/ss/')) {
      const file = path.slice(4);
      if (!/^[\w.-]+$/.test(file)) return route.fulfill({ status: 404 });
      return route.fulfill({ contentType: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(join(SEGMENTATION, file)) });
    }
    if (path === '/segment') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><script src="/ss/selfie_segmentation.js"></script>' });
    if (path.startsWith('/mp/')) {
      const file = path.slice(4);
      if (!/^[\w.-]+$/.test(file)) return route.fulfill({ status: 404 });
      return route.fulfill({ contentType: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(join(PKG, file)) });
    }
    return route.fulfill({ status: 404 });
  });
  await page.goto(`${ORIGIN}/`);
  // A string, not a function: tsx's transform would add helpers the page does not have.
  const result = (await page.evaluate(FIND_FACES)) as { width: number; height: number; faces: { x: number; y: number; z: number }[][]; tesselation: [number, number][] };
  if (result.faces.length !== 1) throw new Error(`expected one face, found ${result.faces.length}`);
  const r5 = (v: number): number => Math.round(v * 1e5) / 1e5;
  const json = JSON.stringify({ width: result.width, height: result.height, landmarks: result.faces[0]!.map((p) => [r5(p.x), r5(p.y), r5(p.z)]) });
  if (out) writeFileSync(out, json + '\n');
  else console.log(json);
  if (maskOut) {
    await page.goto(`${ORIGIN}/segment`);
    const url = (await page.evaluate(SEGMENT)) as string;
    writeFileSync(maskOut, Buffer.from(url.split(',')[1]!, 'base64'));
  }
  if (tessOut) writeFileSync(tessOut, JSON.stringify({ source: '@mediapipe/face_mesh FACEMESH_TESSELATION (Apache-2.0)', triangles: toTriangles(result.tesselation) }) + '\n');
} finally {
  await browser.close();
}

function toTriangles(edges: [number, number][]): number[] {
  if (edges.length % 3 !== 0) throw new Error('the tesselation is not a list of triangles');
  const out: number[] = [];
  for (let i = 0; i < edges.length; i += 3) {
    const [a, b, c] = [edges[i]!, edges[i + 1]!, edges[i + 2]!];
    if (a[1] !== b[0] || b[1] !== c[0] || c[1] !== a[0]) throw new Error(`edges ${i}..${i + 2} do not close a triangle`);
    out.push(a[0], b[0], c[0]);
  }
  return out;
}
