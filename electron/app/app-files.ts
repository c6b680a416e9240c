// Maps a studio-app:// URL to a file of the renderer page (electron/services/renderer-files.ts).
import { rendererFile, type RendererDirs } from '../services/renderer-files.js';

export function resolveAppFile(dirs: RendererDirs, requestUrl: string, host = 'app'): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.host !== host) return null;
  let rel: string;
  try {
    rel = url.pathname === '/' ? '/index.html' : decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  return rendererFile(dirs, rel);
}
