// How a script splits into caption pages and lines: the scene's own pagination (the caption
// box of the chosen template and aspect ratio, measured in the caption font), so the preview
// lists exactly the lines the video will show.
import type { RenderParams, Template } from '../../shared/contract/index.js';
import { captionTokens, captionWords, computeLayout, joinWords, measureWith, paginateCaptions } from '../../shared/scene/index.js';
import { outputSize } from '../../shared/contract/index.js';

let measureCtx: CanvasRenderingContext2D | null = null;

export function captionPages(text: string, template: Template | null, params: RenderParams): string[][] {
  const words = captionTokens(text);
  if (!words.length) return [];
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (!measureCtx) return [words.map((w) => w.text).join(' ').split(/(?<=[.!?])\s+/)];
  const layout = computeLayout(template?.id ?? '', params, outputSize(params.aspectRatio));
  const timed = captionWords(words.map((w, i) => ({ ...w, start: i, end: i + 1 })));
  return paginateCaptions(layout, timed, measureWith(measureCtx, layout)).map((p) => p.lines.map((l) => joinWords(l.map((i) => timed[i]!.text))));
}
