// Caption files from the caption pages: one cue list (a cue per page, the same words the video
// shows, each word's time) and two writers. WebVTT gives each word after the first its inline
// timestamp (`<00:00:01.250>`), which players and editors use for karaoke-style highlighting,
// and escapes text per its spec (`&`, `<`, `>`), so a script can never close a tag, open one, or
// put `-->` in a cue. SRT has the cues' lines only. The SRT of a finished job is written from
// its stored WebVTT file (readVttCues), so both always hold the same cues.
import { wordGap, type CaptionPage, type TimedWord } from '../../../shared/scene/index.js';

/** A caption word: its text, its time (ms) and what separates it from the word before on its line. */
export interface CueWord {
  text: string;
  at: number;
  gap: '' | ' ';
}

/** A caption cue: times in ms, lines of words. */
export interface CaptionCue {
  start: number;
  end: number;
  lines: CueWord[][];
}

const stamp = (ms: number, decimal = '.') => {
  const h = Math.floor(ms / 3600000);
  const m = Math.floor((ms % 3600000) / 60000);
  const sec = Math.floor((ms % 60000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(sec)}${decimal}${pad(ms % 1000, 3)}`;
};

export function escapeVtt(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const unescapeVtt = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** `ends`: the time each page must end by (its scene's end; default the video's), so no cue runs into the next scene. */
export function captionCues(pages: readonly CaptionPage[], words: readonly TimedWord[], duration: number, ends?: readonly number[]): CaptionCue[] {
  const ms = (s: number) => Math.max(0, Math.round(s * 1000));
  return pages.map((p, i) => {
    const next = pages[i + 1];
    const start = ms(p.start);
    // Word times must grow strictly inside the cue: equal times (a word espeak says in one
    // breath with the one before, an emoji) are a millisecond apart.
    let at = start;
    const lines = p.lines.map((line, li) =>
      line.map((wi, k): CueWord => {
        if (li > 0 || k > 0) at = Math.max(at + 1, ms(words[wi]!.start));
        return { text: words[wi]!.text, at, gap: k ? wordGap(words[line[k - 1]!]!.text, words[wi]!.text) : '' };
      }),
    );
    const limit = ms(Math.min(duration, ends?.[i] ?? duration));
    const end = Math.max(Math.min(limit, Math.max(ms(p.end), next ? ms(next.start) : limit)), at + 1);
    return { start, end, lines };
  });
}

export function writeVtt(cues: readonly CaptionCue[]): string {
  const body = cues.map((c, i) => {
    const lines = c.lines.map((line, li) => line.map((w, k) => (li === 0 && k === 0 ? escapeVtt(w.text) : `${w.gap}<${stamp(w.at)}>${escapeVtt(w.text)}`)).join(''));
    return `${i + 1}\n${stamp(c.start)} --> ${stamp(c.end)}\n${lines.join('\n')}\n`;
  });
  return `WEBVTT\n\n${body.join('\n')}`;
}

/** SRT (SubRip): numbered cues, times with a decimal comma, plain lines; CRLF as the format was born with. */
export function writeSrt(cues: readonly CaptionCue[]): string {
  return cues
    .map((c, i) => [String(i + 1), `${stamp(c.start, ',')} --> ${stamp(c.end, ',')}`, ...c.lines.map((l) => l.map((w) => w.gap + w.text).join(''))].join('\r\n'))
    .join('\r\n\r\n')
    .concat(cues.length ? '\r\n' : '');
}

export function toWebVtt(pages: readonly CaptionPage[], words: readonly TimedWord[], duration: number, ends?: readonly number[]): string {
  return writeVtt(captionCues(pages, words, duration, ends));
}

const TIMING = /^(\d\d):(\d\d):(\d\d)\.(\d{3}) --> (\d\d):(\d\d):(\d\d)\.(\d{3})$/;
const toMs = (h: string, m: string, s: string, f: string) => ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f);

/** The cues of a WebVTT file this engine wrote (writeVtt); anything else in it is skipped. */
export function readVttCues(vtt: string): CaptionCue[] {
  const cues: CaptionCue[] = [];
  for (const block of vtt.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const rows = block.split('\n').filter((r) => r !== '');
    const t = rows.findIndex((r) => TIMING.test(r));
    if (t < 0) continue;
    const m = TIMING.exec(rows[t]!)!;
    const start = toMs(m[1]!, m[2]!, m[3]!, m[4]!);
    const lines = rows.slice(t + 1).map((row) => {
      // A line is its first word, then (gap)<stamp>word for each other: split at the stamps, a
      // piece's trailing space being the gap before the next word.
      const pieces = row.split(/<(\d\d):(\d\d):(\d\d)\.(\d{3})>/);
      const words: CueWord[] = [];
      let at = start;
      let gap: '' | ' ' = '';
      for (let i = 0; i < pieces.length; i += 5) {
        const last = i + 5 >= pieces.length;
        const text = pieces[i]!;
        const spaced = !last && text.endsWith(' ');
        // A cue's later line starts with its first word's stamp.
        if (i > 0 || text !== '') words.push({ text: unescapeVtt(spaced ? text.slice(0, -1) : text), at, gap });
        gap = spaced ? ' ' : '';
        if (!last) at = toMs(pieces[i + 1]!, pieces[i + 2]!, pieces[i + 3]!, pieces[i + 4]!);
      }
      return words;
    });
    cues.push({ start, end: toMs(m[5]!, m[6]!, m[7]!, m[8]!), lines });
  }
  return cues;
}
