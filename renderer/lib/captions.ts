// How a script splits into caption lines: sentences first, then words wrapped to a line
// length that suits the frame (narrow frames get shorter lines).
import type { AspectRatio } from '../../shared/contract/index.js';

export function captionLineLength(aspectRatio: AspectRatio): number {
  const [w, h] = aspectRatio.split(':').map(Number) as [number, number];
  return w / h >= 1.5 ? 42 : w / h >= 1 ? 34 : 26;
}

export function splitCaptions(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  const sentences = text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?…])\s+/u)
    .filter(Boolean);
  for (const sentence of sentences) {
    let line = '';
    for (const word of sentence.split(' ')) {
      if (line && line.length + 1 + word.length > maxChars) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    if (line) lines.push(line);
  }
  return lines;
}
