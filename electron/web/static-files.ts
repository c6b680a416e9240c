// Serves the renderer page (the built renderer and its fonts: electron/services/renderer-files.ts)
// with the browser bridge client put into index.html.
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { rendererFile, type RendererDirs } from '../services/renderer-files.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.otf': 'font/otf', '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.webp': 'image/webp',
};

export const CLIENT_SCRIPT_PATH = '/bridge/client.js';

/** Puts the bridge client first in <head>, so window.studio exists before the app's modules run. */
export function injectClient(html: string): string {
  const tag = `<script src="${CLIENT_SCRIPT_PATH}"></script>`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => `${m}\n    ${tag}`) : `${tag}\n${html}`;
}

export interface StaticFile {
  /** null: the browser's copy (its If-None-Match) is current. */
  body: Buffer | null;
  type: string;
  /** Content-hashed names (/assets/) never change; anything else is revalidated by its etag. */
  immutable: boolean;
  etag: string | null;
}

export class StaticFiles {
  private index: Buffer | null = null;
  constructor(private readonly dirs: RendererDirs) {}

  async indexHtml(): Promise<Buffer> {
    if (!this.index) this.index = Buffer.from(injectClient(await readFile(join(this.dirs.renderer, 'index.html'), 'utf8')));
    return this.index;
  }

  /** A file of the page, or the app's index.html for client-side routes; null when not found. */
  async get(urlPath: string, ifNoneMatch?: string): Promise<StaticFile | null> {
    let rel: string;
    try {
      rel = decodeURIComponent(urlPath.split('?')[0]!);
    } catch {
      return null;
    }
    if (rel === '/' || rel === '/index.html' || (!extname(rel) && !rel.startsWith('/assets/'))) {
      return { body: await this.indexHtml(), type: TYPES['.html']!, immutable: false, etag: null };
    }
    const full = rendererFile(this.dirs, rel);
    if (!full) return null;
    try {
      const st = await stat(full);
      if (!st.isFile()) return null;
      const immutable = rel.startsWith('/assets/');
      // Fonts keep their names across releases: a browser asks again each load and gets 304 while
      // the file is the same, and the new file (the video's) after an update.
      const etag = immutable ? null : `"${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`;
      const type = TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream';
      if (etag && ifNoneMatch === etag) return { body: null, type, immutable, etag };
      return { body: await readFile(full), type, immutable, etag };
    } catch {
      return null;
    }
  }
}
