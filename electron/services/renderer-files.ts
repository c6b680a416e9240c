// Which file a renderer page gets for a URL path: one rule for the desktop app's studio-app://,
// the web shell and the servers that show the preview in tests and benchmarks. The page is the
// built renderer (dist/renderer); its fonts, under fonts/, come from resources/fonts, where the
// engine reads them, so the app carries them once. Nothing outside the built renderer, and of
// resources/fonts only the files SCENE_FONTS names.
import { join, normalize, sep } from 'node:path';
import { FONTS_URL_DIR, SCENE_FONTS } from '../../shared/scene/fonts.js';

export interface RendererDirs {
  renderer: string;
  fonts: string;
}

/** The folders of the app at `root` (a checkout or the packaged app); tests build the renderer elsewhere. */
export function rendererDirs(root: string, renderer = join(root, 'dist/renderer')): RendererDirs {
  return { renderer, fonts: join(root, 'resources/fonts') };
}

export const FONTS_PATH_PREFIX = `/${FONTS_URL_DIR}/`;

/** Where the built renderer carries MediaPipe Face Mesh and its runner page (vite.config.ts copies them there). */
export const FACE_MESH_URL_DIR = 'mediapipe/face_mesh';
/**
 * The CSP of the Face Mesh runner page and its files. MediaPipe's WebAssembly glue (Emscripten's
 * embind) makes functions with `new Function`, which the app's own pages never allow: it runs in
 * a frame of its own that loads nothing but these files and answers landmarks by postMessage.
 */
export const FACE_MESH_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "connect-src 'self'",
  "img-src 'self' blob: data:",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'none'",
].join('; ');
export const isFaceMeshPath = (path: string): boolean => path.startsWith(`/${FACE_MESH_URL_DIR}/`);
const FONT_FILES = new Set(SCENE_FONTS.map((f) => f.file));

/** The file for a decoded URL path (starting with /), or null when the page has no such file. */
export function rendererFile(dirs: RendererDirs, path: string): string | null {
  if (path.startsWith(FONTS_PATH_PREFIX)) {
    const name = path.slice(FONTS_PATH_PREFIX.length);
    return FONT_FILES.has(name) ? join(dirs.fonts, name) : null;
  }
  const root = normalize(dirs.renderer);
  const full = normalize(join(root, path));
  return full.startsWith(root + sep) ? full : null;
}
