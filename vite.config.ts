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
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
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
 * MediaPipe Face Mesh as the renderer runs it: its script, model and WebAssembly from the npm
 * package and our runner page (renderer/face-mesh), copied beside the built page under
 * mediapipe/face_mesh/, where the app and the web shell serve them with the runner's own CSP
 * (FACE_MESH_CSP); the dev server answers them from their sources.
 */
const MEDIAPIPE_DIR = FACE_MESH_URL_DIR;
const RUNNER_FILES = ['runner.html', 'runner.js'];
const FACE_MESH_FILES = [
  'face_mesh.js', 'face_mesh.binarypb', 'face_mesh_solution_packed_assets.data', 'face_mesh_solution_packed_assets_loader.js',
  // The SIMD build only: every browser the page supports (Electron's Chromium included) runs it.
  'face_mesh_solution_simd_wasm_bin.js', 'face_mesh_solution_simd_wasm_bin.wasm',
];
function faceMeshModel(): Plugin {
  const source = at('node_modules/@mediapipe/face_mesh');
  const runner = at('renderer/face-mesh');
  const from = (name: string) => `${RUNNER_FILES.includes(name) ? runner : source}/${name}`;
  const serve: Connect.NextHandleFunction = (req, res, next) => {
    const path = (req.url ?? '').split('?')[0]!;
    const name = path.startsWith(`/${MEDIAPIPE_DIR}/`) ? path.slice(MEDIAPIPE_DIR.length + 2) : null;
    if (name === null) return next();
    if (!FACE_MESH_FILES.includes(name) && !RUNNER_FILES.includes(name)) return void res.writeHead(404).end();
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
      await Promise.all([...FACE_MESH_FILES, ...RUNNER_FILES].map((f) => copyFile(from(f), `${out}/${f}`)));
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
