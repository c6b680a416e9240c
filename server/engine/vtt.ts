// WebVTT from the caption pages: one cue per page, the same text the video shows.
import type { CaptionPage, TimedWord } from '../../shared/scene/index.js';

const stamp = (s: number) => {
  const ms = Math.max(0, Math.round(s * 1000));
  const h = Math.floor(ms / 3600000);
  const m = Math.floor((ms % 3600000) / 60000);
  const sec = Math.floor((ms % 60000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(sec)}.${pad(ms % 1000, 3)}`;
};

export function toWebVtt(pages: readonly CaptionPage[], words: readonly TimedWord[], duration: number): string {
  const cues = pages.map((p, i) => {
    const next = pages[i + 1];
    const end = Math.min(duration, Math.max(p.end, next ? next.start : duration));
    const text = p.lines.map((l) => l.map((w) => words[w]!.text).join(' ')).join('\n');
    return `${i + 1}\n${stamp(p.start)} --> ${stamp(Math.max(end, p.start + 0.001))}\n${text.replace(/-->/g, '→')}\n`;
  });
  return `WEBVTT\n\n${cues.join('\n')}`;
}
