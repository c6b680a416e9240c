// WebVTT from the caption pages: one cue per page with the same words the video shows, each
// word after the first preceded by its inline timestamp (`<00:00:01.250>`), which players and
// editors use for karaoke-style highlighting. The first word starts with the cue itself.
// Text is escaped per the WebVTT spec (`&`, `<`, `>`), so a script can never close a tag, open
// one, or put `-->` in a cue.
import { wordGap, type CaptionPage, type TimedWord } from '../../../shared/scene/index.js';

const stamp = (ms: number) => {
  const h = Math.floor(ms / 3600000);
  const m = Math.floor((ms % 3600000) / 60000);
  const sec = Math.floor((ms % 60000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(sec)}.${pad(ms % 1000, 3)}`;
};

export function escapeVtt(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `ends`: the time each page must end by (its scene's end; default the video's), so no cue runs into the next scene. */
export function toWebVtt(pages: readonly CaptionPage[], words: readonly TimedWord[], duration: number, ends?: readonly number[]): string {
  const ms = (s: number) => Math.max(0, Math.round(s * 1000));
  const cues = pages.map((p, i) => {
    const next = pages[i + 1];
    const start = ms(p.start);
    // Inline timestamps must grow strictly inside the cue: equal times (a word espeak says in
    // one breath with the one before, an emoji) are a millisecond apart.
    let at = start;
    const lines = p.lines.map((line, li) =>
      line
        .map((wi, k) => {
          const text = escapeVtt(words[wi]!.text);
          if (li === 0 && k === 0) return text;
          at = Math.max(at + 1, ms(words[wi]!.start));
          const gap = k ? wordGap(words[line[k - 1]!]!.text, words[wi]!.text) : '';
          return `${gap}<${stamp(at)}>${text}`;
        })
        .join(''),
    );
    const limit = ms(Math.min(duration, ends?.[i] ?? duration));
    const end = Math.max(Math.min(limit, Math.max(ms(p.end), next ? ms(next.start) : limit)), at + 1);
    return `${i + 1}\n${stamp(start)} --> ${stamp(end)}\n${lines.join('\n')}\n`;
  });
  return `WEBVTT\n\n${cues.join('\n')}`;
}

