// Builds, one mode each (`npm run build` runs them all):
//   (default)   the renderer → dist/renderer (entry renderer/index.html, relative base so it
//               loads from studio-app:// in Electron and from / in the web shell). Its fonts
//               are not copied: they are served from resources/fonts under fonts/ (by the app,
//               the web shell, and here by `vite` / `vite preview`)
//   main        Electron main process → dist/electron/main.cjs (dependencies stay external)
//   preload     the preload → dist/electron/preload.cjs, fully bundled (sandbox: true allows
//               nothing but `electron` to be required)
//   web-client  the web shell's window.studio script → dist/web-client/studio-client.js
import { defineConfig, type Connect, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { FACE_MESH_CSP, FACE_MESH_URL_DIR, FONTS_PATH_PREFIX, rendererDirs, rendererFile } from './electron/services/renderer-files.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const at = (p: string) => `${root}${p}`;
// Source maps for development; a release build (electron/build/dist.mjs) ships none.
const sourcemap = !process.env.PS_RELEASE_BUILD;
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

function electronBuild(entry: string, file: string, bundleAll: boolean): UserConfig {
  return {
    root,
    publicDir: false,
    ssr: bundleAll ? { noExternal: true, external: ['electron'] } : { external: ['electron'] },
    build: {
      ssr: at(entry),
      outDir: at('dist/electron'),
      emptyOutDir: false,
      target: 'node22',
      minify: false,
      sourcemap,
      rolldownOptions: {
        external: ['electron', ...nodeBuiltins],
        output: { format: 'cjs', entryFileNames: file, codeSplitting: false },
      },
    },
  };
}

/** The dev and preview servers answer fonts/ as the app does (the build has none to serve). */
function fontsFromResources(): Plugin {
  const serveFonts: Connect.NextHandleFunction = (req, res, next) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (!path.startsWith(FONTS_PATH_PREFIX)) return next();
    const file = rendererFile(rendererDirs(root), path);
    if (!file) return void res.writeHead(404).end();
    readFile(file).then((body) => res.writeHead(200, { 'content-type': path.endsWith('.otf') ? 'font/otf' : 'font/ttf' }).end(body), next);
  };
  return {
    name: 'fonts-from-resources',
    configureServer: (server) => void server.middlewares.use(serveFonts),
    configurePreviewServer: (server) => void server.middlewares.use(serveFonts),
  };
}

/**
 * MediaPipe Face Mesh and Selfie Segmentation as the renderer runs them: their scripts, models
 * and WebAssembly from the npm packages and our runner pages (renderer/face-mesh), copied beside
 * the built page under mediapipe/face_mesh/, where the app and the web shell serve them with the
 * runners' own CSP (FACE_MESH_CSP); the dev server answers them from their sources. Only the
 * WebAssembly SIMD builds ship (every Chromium since 91 and Electron run them; the packages'
 * plain builds are a fallback for older browsers and would double the models' share of the app),
 * only the general segmentation model the runner selects, and of Face Mesh's packed models only
 * those it reads (withoutUnusedModel).
 */
const MEDIAPIPE_DIR = FACE_MESH_URL_DIR;
const RUNNER_FILES = ['runner.html', 'runner.js', 'segment.html', 'segment.js'];
const FACE_MESH_FILES = [
  'face_mesh.js', 'face_mesh.binarypb', 'face_mesh_solution_packed_assets.data', 'face_mesh_solution_packed_assets_loader.js',
  'face_mesh_solution_simd_wasm_bin.js', 'face_mesh_solution_simd_wasm_bin.wasm',
];
const SEGMENTATION_FILES = [
  'selfie_segmentation.js', 'selfie_segmentation.binarypb', 'selfie_segmentation.tflite', 'selfie_segmentation_solution_simd_wasm_bin.data',
  'selfie_segmentation_solution_simd_wasm_bin.js', 'selfie_segmentation_solution_simd_wasm_bin.wasm',
];
/** Face Mesh's packed models (.data) and the script that loads them, whose file table says where each is. */
const PACKED_MODELS = 'face_mesh_solution_packed_assets.data';
const PACKED_MODELS_LOADER = 'face_mesh_solution_packed_assets_loader.js';
/**
 * The runner asks for refined landmarks (renderer/face-mesh/runner.js), which Face Mesh's graph
 * reads from the attention model only: its plain landmark model is never opened.
 */
const UNUSED_FACE_MESH_MODEL = '/third_party/mediapipe/modules/face_landmark/face_landmark.tflite';
const PackedFiles = z.looseObject({
  files: z.array(z.looseObject({ filename: z.string(), start: z.number().int(), end: z.number().int() })),
  remote_package_size: z.number().int(),
});

/** The packed models without UNUSED_FACE_MESH_MODEL, and their loader with its file table to match. */
function withoutUnusedModel(loader: string, data: Buffer): { loader: string; data: Buffer } {
  const table = /loadPackage\((\{"files".*?\})\)/s.exec(loader)?.[1];
  if (!table) throw new Error(`${PACKED_MODELS_LOADER}: no file table (a new MediaPipe release?)`);
  const meta = PackedFiles.parse(JSON.parse(table));
  const unused = meta.files.find((f) => f.filename === UNUSED_FACE_MESH_MODEL);
  if (!unused || meta.remote_package_size !== data.length) throw new Error(`${PACKED_MODELS_LOADER}: ${UNUSED_FACE_MESH_MODEL} is not where the file table says (a new MediaPipe release?)`);
  const cut = unused.end - unused.start;
  const files = meta.files.filter((f) => f !== unused).map((f) => (f.start >= unused.end ? { ...f, start: f.start - cut, end: f.end - cut } : f));
  const kept = Buffer.concat([data.subarray(0, unused.start), data.subarray(unused.end)]);
  return { loader: loader.replace(table, JSON.stringify({ ...meta, files, remote_package_size: kept.length })), data: kept };
}

function faceMeshModel(): Plugin {
  const runner = at('renderer/face-mesh');
  const from = (name: string) =>
    `${RUNNER_FILES.includes(name) ? runner : SEGMENTATION_FILES.includes(name) ? at('node_modules/@mediapipe/selfie_segmentation') : at('node_modules/@mediapipe/face_mesh')}/${name}`;
  const serve: Connect.NextHandleFunction = (req, res, next) => {
    const path = (req.url ?? '').split('?')[0]!;
    const name = path.startsWith(`/${MEDIAPIPE_DIR}/`) ? path.slice(MEDIAPIPE_DIR.length + 2) : null;
    if (name === null) return next();
    if (![...FACE_MESH_FILES, ...SEGMENTATION_FILES, ...RUNNER_FILES].includes(name)) return void res.writeHead(404).end();
    const type = name.endsWith('.js') ? 'text/javascript' : name.endsWith('.wasm') ? 'application/wasm' : name.endsWith('.html') ? 'text/html' : 'application/octet-stream';
    readFile(from(name)).then((body) => res.writeHead(200, { 'content-type': type, 'content-security-policy': FACE_MESH_CSP }).end(body), next);
  };
  return {
    name: 'face-mesh-model',
    configureServer: (server) => void server.middlewares.use(serve),
    configurePreviewServer: (server) => void server.middlewares.use(serve),
    async writeBundle(options) {
      const out = `${options.dir}/${MEDIAPIPE_DIR}`;
      await mkdir(out, { recursive: true });
      const copied = [...FACE_MESH_FILES, ...SEGMENTATION_FILES, ...RUNNER_FILES].filter((f) => f !== PACKED_MODELS && f !== PACKED_MODELS_LOADER);
      await Promise.all(copied.map((f) => copyFile(from(f), `${out}/${f}`)));
      const packed = withoutUnusedModel(await readFile(from(PACKED_MODELS_LOADER), 'utf8'), await readFile(from(PACKED_MODELS)));
      await writeFile(`${out}/${PACKED_MODELS_LOADER}`, packed.loader);
      await writeFile(`${out}/${PACKED_MODELS}`, packed.data);
    },
  };
}

export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'main') return electronBuild('electron/app/main.ts', 'main.cjs', false);
  if (mode === 'preload') return electronBuild('electron/app/preload.ts', 'preload.cjs', true);
  if (mode === 'web-client') {
    return {
      root,
      publicDir: false,
      build: {
        outDir: at('dist/web-client'),
        emptyOutDir: true,
        target: 'es2022',
        lib: { entry: at('web-client/studio-client.ts'), formats: ['iife'], name: 'PresenterStudioBridge', fileName: () => 'studio-client.js' },
      },
    };
  }
  return {
    root: at('renderer'),
    base: './',
    plugins: [react(), fontsFromResources(), faceMeshModel()],
    build: { outDir: at('dist/renderer'), emptyOutDir: true, target: 'es2022', sourcemap },
    server: { port: 5173, strictPort: false },
  };
});
