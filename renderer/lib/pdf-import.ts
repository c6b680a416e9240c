// PDF documents in the renderer, through pdf.js (loaded on first use, its worker beside it).
// `renderDocumentPage` draws one page for the canvas preview of a scene over a document.
import type { PDFDocumentProxy } from 'pdfjs-dist';

let pdfjs: Promise<typeof import('pdfjs-dist')> | null = null;
function loadPdfjs(): Promise<typeof import('pdfjs-dist')> {
  pdfjs ??= import('pdfjs-dist').then((m) => {
    m.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();
    return m;
  });
  return pdfjs;
}

const documents = new Map<string, Promise<PDFDocumentProxy>>();

/** Longest side of a rendered page, px: sharp on the preview, small enough to keep a few. */
const PAGE_PX = 1920;

/** Page `page` (from 1) of the PDF at `url`, drawn on a canvas of its own. */
export async function renderDocumentPage(url: string, page: number): Promise<HTMLCanvasElement> {
  const lib = await loadPdfjs();
  let doc = documents.get(url);
  if (!doc) {
    doc = lib.getDocument({ url }).promise;
    documents.set(url, doc);
    doc.catch(() => documents.delete(url)); // a failed load is tried again next time
  }
  const p = await (await doc).getPage(page);
  const base = p.getViewport({ scale: 1 });
  const viewport = p.getViewport({ scale: PAGE_PX / Math.max(base.width, base.height) });
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(viewport.width);
  canvas.height = Math.round(viewport.height);
  await p.render({ canvas, viewport }).promise;
  return canvas;
}
