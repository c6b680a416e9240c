// Word-timed captions: words are fitted into pages of lines that fit the caption box, a page
// shows from its first word until the next page starts, and the word being spoken is marked.
import type { SceneLayout } from './layout.js';
import { captionFont } from './styles.js';
import { wordGap } from './scripts.js';
import type { CaptionView, TimedWord } from './types.js';

export interface CaptionPage {
  /** Word indices per line. */
  lines: number[][];
  start: number;
  end: number;
}

/** How wide a string is in the caption font (ctx.measureText after setting ctx.font). */
export type MeasureText = (text: string) => number;

export function captionText(layout: SceneLayout, word: string): string {
  return layout.style.uppercase ? word.toUpperCase() : word;
}

/** True for a word that ends a sentence ("done.", "why?\"", "(really!)"): it ends a caption page. */
export function endsSentence(word: string): boolean {
  return /[.!?…。！？؟۔]["'»)\]」』”’）]*$/u.test(word);
}

/**
 * Abbreviations whose full stop ends no sentence, by how scripts write them: titles before a
 * name and words before a number or in mid-sentence, in the catalog's languages ("Mr. Smith",
 * "Dr. Müller", "Fig. 3", "z.B. das", "Sr. García"). The voices say each as a word.
 */
export const ABBREVIATIONS: ReadonlySet<string> = new Set([
  // English
  'Mr.', 'Mrs.', 'Ms.', 'Dr.', 'St.', 'Prof.', 'Gov.', 'Sen.', 'Rep.', 'Gen.', 'Capt.', 'Lt.', 'Sgt.', 'Rev.', 'Hon.', 'Pres.',
  'Mt.', 'Ft.', 'Fig.', 'fig.', 'p.', 'pp.', 'ch.', 'Ch.', 'Vol.', 'vol.', 'ca.', 'c.', 'approx.', 'i.e.', 'e.g.', 'vs.',
  'Jan.', 'Feb.', 'Mar.', 'Apr.', 'Jun.', 'Jul.', 'Aug.', 'Sep.', 'Sept.', 'Oct.', 'Nov.', 'Dec.',
  // German
  'Hr.', 'Hrn.', 'Fr.', 'Nr.', 'S.', 'Abb.', 'Kap.', 'Bd.', 'z.B.', 'Z.B.', 'd.h.', 'D.h.', 'bzw.', 'ggf.', 'inkl.', 'evtl.', 'u.a.',
  'v.a.', 'z.T.', 'u.U.', 'bspw.', 'sog.',
  // French, Spanish, Italian, Portuguese, Dutch, Polish
  'M.', 'MM.', 'Mme.', 'Pr.', 'env.', 'Sr.', 'Sra.', 'Srta.', 'Dra.', 'D.', 'Dña.', 'núm.', 'pág.', 'aprox.', 'Sig.', 'Sig.ra',
  'Dott.', 'n.', 'pag.', 'dhr.', 'Dhr.', 'mevr.', 'Mevr.', 'bijv.', 'nr.', 'blz.', 'np.', 'prof.', 'ul.', 'ok.', 'godz.', 's.',
]);

/** German ordinals that are a date's or a century's ("am 3. April", "im 19. Jahrhundert"). */
const ORDINAL_BEFORE = /^(?:Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|Jahrhundert|Jh\.)/u;

/**
 * True when `word` ends a sentence with `next` after it: an abbreviation's full stop ("Mr. Smith",
 * "No. 5" but not "No. Not now") or a German ordinal's ("3. April") ends none. (A full stop
 * before a word in lower case still does: scripts typed in lower case have sentences too.)
 */
export function endsSentenceBefore(word: string, next: string | undefined): boolean {
  if (!endsSentence(word)) return false;
  if (next === undefined || !word.endsWith('.') || word.endsWith('..')) return true;
  const bare = word.replace(/^["'«([„“‘¿¡]+/u, '');
  return !(ABBREVIATIONS.has(bare) || (bare === 'No.' && /^\d/.test(next)) || (/^\d{1,2}\.$/.test(bare) && ORDINAL_BEFORE.test(next)));
}

/** Splits the narration's words into caption pages that fit the layout's caption box. */
export function paginateCaptions(layout: SceneLayout, words: readonly TimedWord[], measure: MeasureText): CaptionPage[] {
  const { style, caption, captionPadding } = layout;
  const maxWidth = caption.width - 2 * captionPadding - (style.caption === 'lowerThird' ? layout.captionFontPx * 2.2 : 0);
  const space = measure(' ');
  const pages: CaptionPage[] = [];
  let lines: number[][] = [];
  let line: number[] = [];
  let lineWidth = 0;
  let lineWords = 0;
  const flushPage = () => {
    if (line.length) lines.push(line);
    if (lines.length) {
      const first = words[lines[0]![0]!]!;
      const lastLine = lines[lines.length - 1]!;
      const last = words[lastLine[lastLine.length - 1]!]!;
      pages.push({ lines, start: first.start, end: last.end });
    }
    lines = [];
    line = [];
    lineWidth = 0;
    lineWords = 0;
  };
  words.forEach((w, i) => {
    const width = measure(captionText(layout, w.text));
    // Chinese and Japanese pieces join without a space and count as one word per line.
    const spaced = i === 0 || wordGap(words[i - 1]!.text, w.text) === ' ';
    const gap = spaced ? space : 0;
    const fits = line.length === 0 || (lineWidth + gap + width <= maxWidth && (!spaced || lineWords < style.maxWordsPerLine));
    if (!fits) {
      lines.push(line);
      line = [];
      lineWidth = 0;
      lineWords = 0;
      if (lines.length >= style.captionLines) flushPage();
    }
    lineWidth += (line.length ? gap : 0) + width;
    if (!line.length || spaced) lineWords++;
    line.push(i);
    // A sentence (or a heading, a list item) ends the page, so captions never run one thought into the next.
    if (endsSentenceBefore(w.text, words[i + 1]?.text) || w.pageEnd) flushPage();
  });
  flushPage();
  return pages;
}

/** Measures with a context in the layout's caption font. */
export function measureWith(ctx: { font: string; measureText(t: string): { width: number } }, layout: SceneLayout): MeasureText {
  const font = captionFont(layout.style, layout.captionFontPx);
  return (text) => {
    ctx.font = font;
    return ctx.measureText(text).width;
  };
}

/** Index of the page shown at time t, or -1 before the first word. */
export function pageAt(pages: readonly CaptionPage[], t: number): number {
  if (!pages.length || t < pages[0]!.start - 0.25) return -1;
  let i = 0;
  while (i + 1 < pages.length && pages[i + 1]!.start <= t) i++;
  return i;
}

/**
 * Which page shows at time t and which of its words is highlighted (-1: none yet); page -1
 * when no caption shows. Allocates nothing: the engine asks on every frame.
 */
export function captionStateAt(pages: readonly CaptionPage[], words: readonly TimedWord[], t: number): { page: number; active: number } {
  const p = pageAt(pages, t);
  if (p < 0) return { page: -1, active: -1 };
  let k = 0;
  let active = -1;
  for (const line of pages[p]!.lines) {
    for (const wi of line) {
      if (words[wi]!.start <= t) active = k;
      k++;
    }
  }
  return { page: p, active };
}

/** The caption lines and spoken word at time t, or null when no caption shows. */
export function captionAt(pages: readonly CaptionPage[], words: readonly TimedWord[], t: number): CaptionView | null {
  const { page, active } = captionStateAt(pages, words, t);
  if (page < 0) return null;
  // After the page's last word ends the highlight stays on it until the next page: readers keep their place.
  return { lines: pages[page]!.lines.map((l) => l.map((wi) => words[wi]!.text)), activeIndex: active };
}
