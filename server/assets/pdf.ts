// PDF documents through pdf.js (legacy build, for Node): the page count and size an upload's
// probe records, and a page drawn onto a Skia canvas (a document asset's thumbnail, and the
// engine's document-page background). pdf.js draws with our @napi-rs/canvas (its own nested
// copy is a different version, and canvases of two copies do not mix). Its minified build and
// worker are what run (and all of pdf.js the app ships: electron-builder.yml); the unminified
// build only gives the types.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Canvas, DOMMatrix, ImageData, Path2D, createCanvas } from '@napi-rs/canvas';
import { readPackedFile } from '../packed-file.mjs';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

/** A file pdf.js cannot read as a PDF (the probe answers 422 with the message). */
export class PdfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfError';
  }
}

/** Largest side of a rendered page, in pixels (a page's canvas is held whole in memory). */
const MAX_RENDER_SIDE = 8192;

const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDFJS_BUILD = join(PDFJS_DIR, 'legacy/build');

let loaded: Promise<PdfJs> | null = null;
function pdfjs(): Promise<PdfJs> {
  // pdf.js polyfills these from its own canvas copy only when they are missing: give it ours.
  const g = globalThis as Record<string, unknown>;
  g.DOMMatrix ??= DOMMatrix;
  g.ImageData ??= ImageData;
  g.Path2D ??= Path2D;
  return (loaded ??= (import(pathToFileURL(join(PDFJS_BUILD, 'pdf.min.mjs')).href) as Promise<PdfJs>).then((lib) => {
    // In Node its "worker" runs in this thread, imported from here (by default the unminified one).
    lib.GlobalWorkerOptions.workerSrc = pathToFileURL(join(PDFJS_BUILD, 'pdf.worker.min.mjs')).href;
    return lib;
  }));
}

/** pdf.js's scratch canvases, made by the same @napi-rs/canvas as the page's canvas. */
class SkiaCanvasFactory {
  create(width: number, height: number) {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const canvas = createCanvas(width, height);
    return { canvas, context: canvas.getContext('2d') };
  }
  reset(cc: { canvas: Canvas | null }, width: number, height: number) {
    if (!cc.canvas) throw new Error('Canvas is not specified');
    cc.canvas.width = width;
    cc.canvas.height = height;
  }
  destroy(cc: { canvas: Canvas | null; context: unknown }) {
    if (cc.canvas) cc.canvas.width = cc.canvas.height = 0;
    cc.canvas = null;
    cc.context = null;
  }
}

type BinaryKind = 'cMapUrl' | 'standardFontDataUrl' | 'wasmUrl';

/**
 * pdf.js's reader of its cMaps, standard fonts and WebAssembly decoders (given the folders as the
 * *Url options), through readPackedFile: the packaged app stores them compressed.
 */
class PackedBinaryDataFactory {
  private readonly dirs: Partial<Record<BinaryKind, string | null>>;
  constructor(dirs: Partial<Record<BinaryKind, string | null>>) {
    this.dirs = dirs;
  }
  async fetch({ kind, filename }: { kind: BinaryKind; filename: string }): Promise<Uint8Array> {
    const dir = this.dirs[kind];
    if (!dir) throw new Error(`pdf.js asked for ${kind} data, which is not given`);
    return new Uint8Array(await readPackedFile(join(dir, filename)));
  }
}

async function open(path: string): Promise<PdfDocument> {
  const lib = await pdfjs();
  const data = new Uint8Array(await readFile(path));
  const task = lib.getDocument({
    data,
    isEvalSupported: false,
    // No fonts installed into the process, no network: everything from the package's own files.
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: join(PDFJS_DIR, 'standard_fonts') + '/',
    cMapUrl: join(PDFJS_DIR, 'cmaps') + '/',
    cMapPacked: true,
    wasmUrl: join(PDFJS_DIR, 'wasm') + '/',
    verbosity: 0,
    CanvasFactory: SkiaCanvasFactory as never,
    BinaryDataFactory: PackedBinaryDataFactory as never,
  });
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy();
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new PdfError('the PDF is protected by a password');
    if (name === 'InvalidPDFException') throw new PdfError('not a PDF (pdf.js cannot read it)');
    throw new PdfError(`the PDF cannot be read: ${(err as Error).message ?? String(err)}`);
  }
}

/** Size of page 1 in PDF points (1/72 inch), its rotation applied. */
export async function pdfInfo(path: string): Promise<{ pages: number; width: number; height: number }> {
  const doc = await open(path);
  try {
    if (doc.numPages < 1) throw new PdfError('the PDF has no pages');
    const page = await doc.getPage(1);
    const { width, height } = page.getViewport({ scale: 1 });
    if (!(width > 0 && height > 0)) throw new PdfError('the PDF\'s first page has no size');
    return { pages: doc.numPages, width: Math.round(width), height: Math.round(height) };
  } finally {
    await doc.destroy();
  }
}

/**
 * Renders page `page` (from 1) to fit inside width×height (aspect kept; the canvas is the
 * page's fitted size, at least 1×1), white under the page as a viewer shows it.
 */
export async function renderPdfPage(path: string, page: number, width: number, height: number): Promise<Canvas> {
  if (!(width >= 1 && height >= 1)) throw new RangeError('width and height must be at least 1');
  const doc = await open(path);
  try {
    if (!Number.isInteger(page) || page < 1 || page > doc.numPages) throw new PdfError(`the PDF has no page ${page} (it has ${doc.numPages})`);
    const p = await doc.getPage(page);
    const unit = p.getViewport({ scale: 1 });
    const scale = Math.min(width / unit.width, height / unit.height, MAX_RENDER_SIDE / Math.max(unit.width, unit.height));
    const viewport = p.getViewport({ scale });
    const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    await p.render({ canvas: canvas as never, canvasContext: ctx as never, viewport }).promise;
    p.cleanup();
    return canvas;
  } finally {
    await doc.destroy();
  }
}
