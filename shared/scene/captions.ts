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
 * "No. 5" but not "No. Not now"; "z. B." written with a space, `prev` being the word before; "9 a.m.
 * EST") or a German ordinal's ("3. April") ends none. (A full stop
 * before a word in lower case still does: scripts typed in lower case have sentences too.)
 */
export function endsSentenceBefore(word: string, next: string | undefined, prev?: string): boolean {
  if (!endsSentence(word)) return false;
  if (next === undefined || !word.endsWith('.') || word.endsWith('..')) return true;
  const bare = word.replace(/^["'«([„“‘¿¡]+/u, '');
  return !(
    ABBREVIATIONS.has(bare) ||
    (bare === 'No.' && /^\d/.test(next)) ||
    (/^\d{1,2}\.$/.test(bare) && ORDINAL_BEFORE.test(next)) ||
    // An abbreviation written with spaces: "z. B.", "d. h.", "u. a." (a lone letter's stop ends no sentence before another).
    (/^\p{L}\.$/u.test(bare) && /^\p{L}\.(?!\p{L})/u.test(next)) ||
    (/^\p{L}\.$/u.test(bare) && prev !== undefined && /^\p{L}\.$/u.test(prev)) ||
    // A time's "a.m." before its time zone: "9 a.m. EST".
    (/^[ap]\.m\.$/iu.test(bare) && /^(?:[A-Z]{2,4}T|UTC|GMT|CET|CEST|EST|EDT|PST|PDT|CST|CDT|MST|MDT)\b/u.test(next))
  );
}


/** The most lines a caption page shows (a template may ask for fewer). */
export const CAPTION_MAX_LINES = 2;
/** The shortest time a caption page stays on screen, in seconds (a reader needs that much). */
export const CAPTION_MIN_SECONDS = 0.8;

/**
 * Words after which a line or page should not break, as the catalog's languages write them: an
 * article, preposition or possessive belongs with its noun, a conjunction or a relative word with
 * the clause it opens. A break before one of them is a good one: a phrase starts there.
 */
const LEADING_WORDS: ReadonlySet<string> = new Set([
  // English
  'a', 'an', 'the', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'by', 'from', 'into', 'onto', 'about', 'as', 'and', 'or', 'but',
  'nor', 'our', 'your', 'my', 'his', 'her', 'its', 'their', 'this', 'that', 'these', 'those', 'than', 'via', 'per', 'over', 'under',
  'after', 'before', 'between', 'without', 'within', 'through', 'around', 'across', 'against', 'along', 'among', 'behind', 'below',
  'beside', 'beyond', 'during', 'inside', 'outside', 'toward', 'towards', 'upon', 'until', 'since', 'if', 'so', 'because', 'while',
  'although', 'though', 'unless', 'whether', 'who', 'whom', 'whose', 'which', 'what', 'where', 'when',
  // German
  'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer', 'eines', 'im', 'am', 'vom', 'zum', 'zur',
  'beim', 'ins', 'ans', 'von', 'zu', 'mit', 'für', 'auf', 'an', 'bei', 'nach', 'aus', 'über', 'unter', 'vor', 'durch', 'um', 'und',
  'oder', 'aber', 'sowie', 'ohne', 'gegen', 'seit', 'bis', 'unser', 'unsere', 'unserem', 'unseren', 'unserer', 'ihr', 'ihre', 'ihren',
  'ihrem', 'sein', 'seine', 'seinen', 'seinem', 'kein', 'keine', 'wie', 'als', 'dass', 'weil', 'wenn', 'ob', 'indem',
  // French, Spanish, Italian, Portuguese, Dutch
  'le', 'la', 'les', 'un', 'une', 'des', 'du', 'de', 'à', 'au', 'aux', 'et', 'en', 'dans', 'sur', 'pour', 'par', 'avec', 'el', 'los',
  'las', 'una', 'del', 'al', 'y', 'con', 'por', 'para', 'il', 'lo', 'gli', 'di', 'da', 'nel', 'della', 'e', 'o', 'os', 'as', 'do',
  'da', 'no', 'na', 'het', 'een', 'van', 'op', 'met', 'voor',
]);

/** Auxiliaries and negations: no break after them but before a phrase ("is | the", not "will | focus"). */
const AUXILIARIES: ReadonlySet<string> = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'will', 'can', 'would', 'could', 'should', 'may', 'might', 'must', 'shall', 'not', 'no',
  'very', 'ist', 'sind', 'nicht', 'sehr',
]);

/** Object pronouns: they belong with the verb before them ("told | us"). */
const OBJECT_PRONOUNS: ReadonlySet<string> = new Set(['me', 'us', 'him', 'them']);

/**
 * Words that hold on to the word after them unless a phrase starts there: a verb's auxiliary, a
 * quantifier or an ordinal and its noun ("the next | minute", "diesen | Weg"), an adverb before its
 * verb ("already | use"); "you" and "it" too, whose "walk you | through" still breaks well.
 */
const BINDING_WORDS: ReadonlySet<string> = new Set([
  // English
  'you', 'it', 'have', 'has', 'had', 'do', 'does', 'did', 'every', 'each', 'all', 'some', 'any',
  'many', 'much', 'more', 'most', 'few', 'fewer', 'less', 'least', 'several', 'both', 'other', 'another', 'such', 'same', 'own',
  'next', 'last', 'first', 'second', 'third', 'final', 'new', 'single', 'whole', 'already', 'just', 'also', 'still', 'even', 'never',
  'always', 'only', 'now',
  // German
  'dieser', 'diese', 'dieses', 'diesen', 'diesem', 'jeder', 'jede', 'jedes', 'jeden', 'jedem', 'alle', 'allen', 'einige', 'einigen',
  'viele', 'vielen', 'mehr', 'wenige', 'beide', 'beiden', 'welche', 'welcher', 'welches', 'nächste', 'nächsten', 'letzte', 'letzten',
  'erste', 'ersten', 'neue', 'neuen', 'neuer', 'neues',
  // French, Spanish
  'ce', 'cet', 'cette', 'ces', 'chaque', 'tous', 'toutes', 'nos', 'vos', 'leurs', 'este', 'esta', 'estos', 'estas', 'cada', 'todos',
  'todas', 'nuestro', 'nuestra', 'sus',
]);

/** Numbers written in words: they hold on to their noun, and to the rest of the number most of all. */
const NUMBER_WORDS: ReadonlySet<string> = new Set([
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen',
  'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety',
  'hundred', 'thousand', 'million', 'billion',
  'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn', 'elf', 'zwölf', 'dreizehn', 'vierzehn', 'fünfzehn',
  'zwanzig', 'dreißig', 'vierzig', 'fünfzig', 'sechzig', 'siebzig', 'achtzig', 'neunzig', 'hundert', 'tausend',
]);

/** Subject pronouns: they hold on to their verb, and a clause starts at them ("months | we will"). */
const SUBJECTS: ReadonlySet<string> = new Set([
  'i', 'we', 'they', 'he', 'she', "i'm", "we're", "they're", "you're", "he's", "she's", "it's", "i'll", "we'll", "you'll", "they'll",
  "i've", "we've", "you've", "they've", "i'd", "we'd", "you'd", "they'd", "there's", "that's", "let's",
]);

/** A word as the lists above hold it: no opening quote or bracket, lower case, a straight apostrophe. */
const bareWord = (word: string) => word.replace(/^["'«„“‘([¿¡]+/u, '').replace(/’/gu, "'").toLowerCase();

/** How much a break after `word` (with `next` after it) costs the reader: 0 after a clause ends, very much inside an abbreviation. */
function breakCost(word: string, next: string, spaced: boolean): number {
  if (!spaced) return /\p{Nd}$/u.test(word) || /^\p{Nd}/u.test(next) ? 60 : 4; // Chinese and Japanese break between words
  if (/[,;:–—)\]»”"'’]$/u.test(word) || /[–—]$/u.test(word)) return 0;
  // Inside a run that no sentence ends, a word with a stop is an abbreviation ("z. B.", "a.m. EST", "Dr. Müller").
  if (/\.["'»”’)]*$/u.test(word) || /^\p{L}\.$/u.test(next)) return 1000;
  const bare = bareWord(word);
  const after = bareWord(next);
  if (LEADING_WORDS.has(bare)) return 400;
  if (/^[\d.,:%]+$/u.test(bare)) return 150; // a number with its unit or month ("10 kg", "9 a.m.")
  if (NUMBER_WORDS.has(bare) && NUMBER_WORDS.has(after)) return 400; // inside a number: "twelve | thousand"
  // A phrase starts at the next word (not at "of" after these: "all | of", "each | of").
  const opens = LEADING_WORDS.has(after) && after !== 'of';
  if (AUXILIARIES.has(bare)) return opens ? 14 : 400; // "is | the", not "will | focus"
  if (OBJECT_PRONOUNS.has(after)) return 150;
  if (BINDING_WORDS.has(bare) || SUBJECTS.has(bare) || NUMBER_WORDS.has(bare)) return opens ? 4 : 150;
  return LEADING_WORDS.has(after) || AUXILIARIES.has(after) || SUBJECTS.has(after) ? 4 : 14;
}

/** Splits the narration's words into caption pages that fit the layout's caption box. */
export function paginateCaptions(layout: SceneLayout, words: readonly TimedWord[], measure: MeasureText): CaptionPage[] {
  const { style, caption, captionPadding } = layout;
  const maxWidth = caption.width - 2 * captionPadding - (style.caption === 'lowerThird' ? layout.captionFontPx * 2.2 : 0);
  const maxLines = Math.max(1, Math.min(CAPTION_MAX_LINES, style.captionLines));
  const space = measure(' ');
  const widths = words.map((w) => measure(captionText(layout, w.text)));
  // Chinese and Japanese pieces join without a space and count as one word per line.
  const spaced = words.map((w, i) => i === 0 || wordGap(words[i - 1]!.text, w.text) === ' ');
  // The cost of a break before each word (the same whichever line layout is tried).
  const cuts = words.map((w, i) => (i === 0 ? 0 : breakCost(words[i - 1]!.text, w.text, spaced[i]!)));
  const pages: CaptionPage[] = [];
  let from = 0;
  words.forEach((w, i) => {
    // A sentence (or a heading, a list item) ends the page, so captions never run one thought into the next.
    if (i + 1 === words.length || w.pageEnd || endsSentenceBefore(w.text, words[i + 1]?.text, words[i - 1]?.text)) {
      for (const lines of layoutRun(from, i + 1)) {
        pages.push({ lines, start: words[lines[0]![0]!]!.start, end: words[lines[lines.length - 1]!.at(-1)!]!.end });
      }
      from = i + 1;
    }
  });
  return holdPages(pages, maxLines);

  /**
   * The words a..b (one sentence) as pages of lines, by least cost: lines that fit (width and
   * maxWordsPerLine), breaks where a phrase ends rather than after an article or preposition or
   * inside an abbreviation, no word alone on a line, lines of a page about as long, few pages.
   */
  function layoutRun(a: number, b: number): number[][][] {
    const L = maxLines;
    const n = b - a;
    // cost[j][k]: words a..a+j laid out, the last line being line k (1..L) of its page.
    const cost = Array.from({ length: n + 1 }, () => new Array<number>(L + 1).fill(Infinity));
    const back = Array.from({ length: n + 1 }, () => new Array<[number, number]>(L + 1));
    cost[0]![L] = 0; // a full "page" before the first: the first line starts a page
    for (let j = 1; j <= n; j++) {
      let width = 0;
      let count = 0;
      for (let i = j - 1; i >= 0; i--) {
        const wi = a + i;
        width += widths[wi]! + (i < j - 1 && spaced[wi + 1] ? space : 0);
        if (spaced[wi] || i === j - 1) count++;
        const single = j - i === 1;
        if (!single && (width > maxWidth || count > style.maxWordsPerLine)) break;
        const slack = Math.max(0, maxWidth - width) / maxWidth;
        let line = (j === n ? 2 : 10) * slack * slack;
        if (single && n > 1 && spaced[wi]) line += 300; // never one word alone on a line
        if (single && width > maxWidth) line += 50; // a word wider than the box (shrunk when drawn)
        const cut = i === 0 ? 0 : cuts[wi]!;
        for (let k = 1; k <= L; k++) {
          const before = cost[i]![k]!;
          if (before === Infinity) continue;
          // The next line on the same page, or a new page (a page break weighs more than a line break).
          if (k < L && i > 0) relax(j, k + 1, before + line + cut, i, k);
          relax(j, 1, before + line + (i === 0 ? 0 : 2 * cut + 6) + 30, i, k);
        }
      }
    }
    function relax(j: number, k: number, c: number, i: number, ki: number) {
      if (c < cost[j]![k]!) {
        cost[j]![k] = c;
        back[j]![k] = [i, ki];
      }
    }
    let k = 1;
    for (let q = 2; q <= L; q++) if (cost[n]![q]! < cost[n]![k]!) k = q;
    const lines: { from: number; to: number; k: number }[] = [];
    for (let j = n; j > 0; ) {
      const [i, ki] = back[j]![k]!;
      lines.unshift({ from: i, to: j, k });
      j = i;
      k = ki;
    }
    const out: number[][][] = [];
    for (const l of lines) {
      const ids = Array.from({ length: l.to - l.from }, (_, x) => a + l.from + x);
      if (l.k === 1) out.push([ids]);
      else out[out.length - 1]!.push(ids);
    }
    return out;
  }
}

/**
 * Keeps every page on screen for CAPTION_MIN_SECONDS (from `from` on): a page the next one would
 * follow sooner is shown with it when both fit on one page (a short sentence, "Yes."), else the
 * next page waits for it. Pages made chunk by chunk are held across the joins this way too.
 */
export function holdPages(pages: CaptionPage[], maxLines: number, from = 1): CaptionPage[] {
  for (let i = Math.max(1, from); i < pages.length; i++) {
    const prev = pages[i - 1]!;
    const page = pages[i]!;
    if (page.start - prev.start >= CAPTION_MIN_SECONDS) continue;
    const together = prev.lines.length + page.lines.length <= Math.min(maxLines, CAPTION_MAX_LINES);
    if (together) {
      pages.splice(i - 1, 2, { lines: [...prev.lines, ...page.lines], start: prev.start, end: Math.max(prev.end, page.end) });
      i--;
    } else {
      page.start = prev.start + CAPTION_MIN_SECONDS;
      page.end = Math.max(page.end, page.start);
    }
  }
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
