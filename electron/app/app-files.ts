// Maps a studio-app:// URL to a file of the built renderer; nothing outside that folder.
import { normalize, join, sep } from 'node:path';

export function resolveAppFile(rendererDir: string, requestUrl: string, host = 'app'): string | null {
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
  const root = normalize(rendererDir);
  const full = normalize(join(root, rel));
  return full.startsWith(root + sep) ? full : null;
}
