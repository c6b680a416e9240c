/// <reference types="vite/client" />
// A slide deck becomes scenes: one per page, the page as the background, its own text as the
// starting narration, the presenter small in a corner. pdf.js runs here, in the renderer, with
// its worker served from the app's own origin (the CSP allows scripts and workers from 'self'
// only); eval and WebAssembly stay off, so nothing needs a looser policy.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { blankScene, LIMITS, type Asset, type Avatar, type DocumentScene } from '../../shared/contract/index.js';
import { clampAvatar } from './placement.js';

/** Where the presenter stands over a slide: small, bottom right, clear of most slide content. */
export const SLIDE_PRESENTER: Avatar = clampAvatar({ scale: 0.3, x: 0.85, y: 0.8 });

/** What pdf.js's getTextContent gives for a run of text (marked-content entries have no `str`). */
export interface PageTextItem {
  str?: string;
  hasEOL?: boolean;
  /** [a, b, c, d, x, y]: a change of y starts a new line even without `hasEOL`. */
  transform?: number[];
}

const BULLET = /^\s*(?:[•▪◦●○■□‣⁃∙·*–—-]|\(?[0-9]{1,2}[.)]|[a-z][.)])\s+/u;
const SENTENCE_END = /[.!?…:;。！？]["'”’)\]]*$/u;
/** Footers and page numbers: "3", "3 / 12", "Page 3 of 12", "- 3 -". */
const PAGE_NUMBER = /^(?:page\s*)?[-–\s]*\d{1,4}\s*(?:(?:\/|of)\s*\d{1,4})?[-–\s]*$/iu;

/** The text of a page as lines, the way they are laid out. */
export function pageLines(items: readonly PageTextItem[]): string[] {
  const lines: string[] = [];
  let line = '';
  let lastY: number | null = null;
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    const y = item.transform?.[5];
    if (y !== undefined && lastY !== null && Math.abs(y - lastY) > 1 && line.trim()) {
      lines.push(line);
      line = '';
    }
    if (y !== undefined && item.str) lastY = y;
    line += item.str;
    if (item.hasEOL) {
      lines.push(line);
      line = '';
    }
  }
  lines.push(line);
  return lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

/**
 * A page's text as narration a voice can read: bullets and page numbers dropped, a line broken
 * mid-sentence joined again (a word hyphenated across lines mended), every title or bullet
 * ended as a sentence so the voice pauses after it, and trimmed to one scene's limit at a
 * sentence end.
 */
export function pageNarration(items: readonly PageTextItem[], max: number = LIMITS.textMaxChars): string {
  const lines = pageLines(items)
    .filter((l) => !PAGE_NUMBER.test(l))
    .map((l) => l.replace(BULLET, '').trim())
    .filter((l) => /[\p{L}\p{N}]/u.test(l));
  let text = '';
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    if (line.endsWith('-') && next && /^\p{Ll}/u.test(next)) {
      text += line.slice(0, -1);
      return;
    }
    const continues = next !== undefined && /^\p{Ll}/u.test(next) && !SENTENCE_END.test(line);
    text += continues || SENTENCE_END.test(line) ? `${line} ` : `${line}. `;
  });
  return trimAtSentence(text.trim(), max);
}

function trimAtSentence(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const end = Math.max(...['. ', '! ', '? ', '… '].map((m) => head.lastIndexOf(m)));
  if (end > max / 2) return head.slice(0, end + 1);
  const space = head.lastIndexOf(' ');
  return `${head.slice(0, space > 0 ? space : max - 1).trimEnd()}…`.slice(0, max);
}

/** One scene per page: the page as the background, its text, the presenter in the corner. */
export function slideScenes(assetId: string, narrations: readonly string[]): DocumentScene[] {
  return narrations.map((text, i) => ({
    ...blankScene(text),
    background: { assetId, page: i + 1, fit: 'contain' },
    avatar: SLIDE_PRESENTER,
  }));
}

type PdfJs = typeof import('pdfjs-dist');
let pdfjs: Promise<PdfJs> | null = null;
/** pdf.js is loaded on first use (it is large), its worker from the app's origin. */
function loadPdfJs(): Promise<PdfJs> {
  return (pdfjs ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?worker&url')]).then(([lib, worker]) => {
    lib.GlobalWorkerOptions.workerSrc = worker.default;
    return lib;
  }));
}

// The last few documents stay open: the canvas asks for pages of the same deck as scenes change.
const open = new Map<string, Promise<PDFDocumentProxy>>();
const OPEN_MAX = 4;

export function openDocument(url: string): Promise<PDFDocumentProxy> {
  const known = open.get(url);
  if (known) return known;
  const loading = loadPdfJs().then((lib) => lib.getDocument({ url, isEvalSupported: false, useWasm: false, enableXfa: false }).promise);
  loading.catch(() => open.delete(url));
  open.set(url, loading);
  if (open.size > OPEN_MAX) {
    const [oldest, doc] = open.entries().next().value!;
    open.delete(oldest);
    void doc.then((d) => d.destroy(), () => undefined);
  }
  return loading;
}

/** Every page's narration, up to `maxPages`. */
export async function documentNarrations(url: string, maxPages: number): Promise<{ narrations: string[]; pages: number }> {
  const doc = await openDocument(url);
  const narrations: string[] = [];
  for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    narrations.push(pageNarration(content.items as PageTextItem[]));
    page.cleanup();
  }
  return { narrations, pages: doc.numPages };
}

/** The long side of a page drawn for the preview, in pixels: the largest output frame's. */
const PAGE_RENDER_SIDE = 1920;

/** Draws one page (1-based) of a PDF onto a new canvas, its long side PAGE_RENDER_SIDE pixels. */
export async function renderDocumentPage(url: string, page: number): Promise<HTMLCanvasElement> {
  const doc = await openDocument(url);
  const p = await doc.getPage(Math.min(Math.max(1, Math.round(page)), doc.numPages));
  const base = p.getViewport({ scale: 1 });
  const viewport = p.getViewport({ scale: PAGE_RENDER_SIDE / Math.max(base.width, base.height) });
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(viewport.width);
  canvas.height = Math.round(viewport.height);
  await p.render({ canvas, viewport }).promise;
  p.cleanup();
  return canvas;
}

/** A document asset's pages that fit in the video, given how many scenes it already has. */
export function pagesToImport(asset: Pick<Asset, 'pages'>, scenesNow: number, replacingOne: boolean): number {
  const room = LIMITS.scenesMax - scenesNow + (replacingOne ? 1 : 0);
  return Math.max(0, Math.min(asset.pages ?? room, room));
}
