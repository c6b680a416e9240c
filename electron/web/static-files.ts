// Serves the built renderer (dist/renderer) with the browser bridge client put into index.html.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.webp': 'image/webp',
};

export const CLIENT_SCRIPT_PATH = '/bridge/client.js';

/** Puts the bridge client first in <head>, so window.studio exists before the app's modules run. */
export function injectClient(html: string): string {
  const tag = `<script src="${CLIENT_SCRIPT_PATH}"></script>`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => `${m}\n    ${tag}`) : `${tag}\n${html}`;
}

export interface StaticFile {
  body: Buffer;
  type: string;
  immutable: boolean;
}

export class StaticFiles {
  private index: Buffer | null = null;
  constructor(private readonly root: string) {}

  async indexHtml(): Promise<Buffer> {
    if (!this.index) this.index = Buffer.from(injectClient(await readFile(join(this.root, 'index.html'), 'utf8')));
    return this.index;
  }

  /** A file under the root, or the app's index.html for client-side routes; null when not found. */
  async get(urlPath: string): Promise<StaticFile | null> {
    let rel: string;
    try {
      rel = decodeURIComponent(urlPath.split('?')[0]!);
    } catch {
      return null;
    }
    if (rel === '/' || rel === '/index.html' || (!extname(rel) && !rel.startsWith('/assets/'))) {
      return { body: await this.indexHtml(), type: TYPES['.html']!, immutable: false };
    }
    const full = normalize(join(this.root, rel));
    if (!full.startsWith(this.root + sep)) return null;
    try {
      if (!(await stat(full)).isFile()) return null;
      return { body: await readFile(full), type: TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream', immutable: rel.startsWith('/assets/') };
    } catch {
      return null;
    }
  }
}
