// Two app-local schemes. `studio-app://app/` serves the built renderer and, under fonts/, the
// engine's fonts from resources/fonts (so the page has a real origin and a CSP header); `studio-media://app/…` streams job media, template thumbnails and
// voice samples from the render API with the key added here and byte ranges passed through.
import { extname } from 'node:path';
import { resolveAppFile } from './app-files.js';
import { CRASH_PAGE_PATH, crashPage } from './crash-page.js';
import type { ProtocolLike } from './electron-api.js';
import { FACE_MESH_CSP, isFaceMeshPath, type RendererDirs } from '../services/renderer-files.js';
import type { Studio } from '../services/studio.js';
import { readPackedFile } from '../../server/packed-file.mjs';

export const APP_SCHEME = 'studio-app';
export const MEDIA_SCHEME = 'studio-media';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const MEDIA_BASE = `${MEDIA_SCHEME}://${APP_HOST}`;

export const DESKTOP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob: ${MEDIA_SCHEME}:`,
  `media-src 'self' blob: ${MEDIA_SCHEME}:`,
  // A brand's font asset (the preview's captions in the creator's font) comes through the media scheme.
  `font-src 'self' data: ${MEDIA_SCHEME}:`,
  // The page reads an asset's bytes (a PDF's pages through pdf.js) from the media scheme.
  `connect-src 'self' ${MEDIA_SCHEME}:`,
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Must run before app 'ready'. */
export function registerSchemes(protocol: ProtocolLike): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    // corsEnabled: the page (studio-app://app) loads fonts, a PDF's bytes and photo presenters' portraits from here, all CORS-mode requests across origins.
    { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.otf': 'font/otf', '.json': 'application/json', '.wasm': 'application/wasm',
};

const notFound = () => new Response('not found', { status: 404 });

export function handleSchemes(protocol: ProtocolLike, dirs: RendererDirs, studio: Pick<Studio, 'openMedia'>): void {
  protocol.handle(APP_SCHEME, async (req) => {
    // The Face Mesh runner frame has a CSP of its own (renderer-files.ts).
    const headers = { 'content-security-policy': isFaceMeshPath(new URL(req.url).pathname) ? FACE_MESH_CSP : DESKTOP_CSP };
    if (req.url === `${APP_ORIGIN}${CRASH_PAGE_PATH}`) return new Response(crashPage(), { headers: { ...headers, 'content-type': TYPES['.html']! } });
    const full = resolveAppFile(dirs, req.url, APP_HOST);
    if (!full) return notFound();
    try {
      // The package stores the page's scripts, fonts and MediaPipe's files compressed (PACKED_FILES in electron/build/after-pack.mjs).
      const body = await readPackedFile(full);
      return new Response(body, { headers: { ...headers, 'content-type': TYPES[extname(full)] ?? 'application/octet-stream' } });
    } catch {
      return notFound();
    }
  });
  protocol.handle(MEDIA_SCHEME, async (req) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return notFound();
    }
    if (url.host !== APP_HOST) return notFound();
    const res = await studio.openMedia(url.pathname.slice(1), { range: req.headers.get('range'), ifNoneMatch: req.headers.get('if-none-match') }, req.signal);
    // CORS-mode loads (fonts, a PDF's bytes, a photo presenter's portrait) are readable by the app's own page, and by no other origin.
    const headers = new Headers(res.headers);
    headers.set('access-control-allow-origin', APP_ORIGIN);
    headers.append('vary', 'origin');
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  });
}
