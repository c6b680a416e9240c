// Writing systems in captions: which scripts run right to left, which are written without
// spaces (Chinese, Japanese), and how such text splits into caption words. One definition for
// the video, the preview and the WebVTT file.
import { withoutBreaks } from '../contract/breaks.js';
import type { TimedWord } from './types.js';

/** Characters of scripts written without spaces between words (Han, kana, CJK punctuation, fullwidth forms). */
const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef\u30fc]/u;
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const STRONG = /\p{L}/u;

/**
 * True for a script token that captions show: letters, digits, emoji (spoken as nothing, still
 * shown), symbols and the signs a voice reads out ("&", "%", "#", "@", "°", "+", "€"…); not a
 * lone dash, ellipsis, quote or other punctuation, which only shapes the speech.
 */
export function isCaptionWord(text: string): boolean {
  return /[\p{L}\p{N}\p{Extended_Pictographic}\p{S}%‰&#@§°/]/u.test(text);
}

/** A mark only where it touches a word on one side: "**Step 1:**", "*really*", "_this_", "`code`". */
const EMPHASIS_OPEN = /(?<=^|[\s([{"'“‘])[*_`]+(?=[^\s*_`])/gu;
const EMPHASIS_CLOSE = /(?<=[^\s*_`])[*_`]+(?=$|[\s)\]}"'”’.,;:!?…])/gu;
/** A Markdown table's rule row ("|:---|---:|"), or a horizontal rule: nothing to read. */
const TABLE_RULE = /^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|?)+[ \t]*$/gmu;
/** A pipe standing alone (a table's cell border, "Home | About"): a short pause, as a lone comma is (not shown). */
const LONE_PIPE = /(?<=^|[ \t])\|+(?=[ \t]|$)/gmu;
/** A heading's hashes or a list bullet at the start of a line, before a space. */
const LINE_MARK = /^([ \t]*)(#{1,6}|[*+•‣◦▪-])(?=[ \t])/gmu;

/** A Markdown link, "[our site](https://example.com)": its text is what is meant to be read. */
const LINK = /\[([^\]\n]+)\]\([^()\s]*\)/gu;
/** An asterisk between numbers is a multiplication: "3 * 4" is said "3 times 4", not "3 asterisk 4". */
const TIMES = /(?<=\p{N}[ \t]*)\*(?=[ \t]*\p{N})/gu;
/** A line that ends without punctuation (a heading, a list item, a title), closing quotes and brackets aside. */
const OPEN_END = /[\p{L}\p{N}\p{Extended_Pictographic}]["'”’»)\]」』）]*\s*$/u;
/** A line that starts a new thought: a capital, a digit, a bullet or heading mark, or a script without case. */
const NEW_LINE_START = /^\s*(?:[-*+•‣◦▪#]|\p{Lu}|\p{Lt}|\p{N}|\p{Lo})/u;

/**
 * The script as it is spoken and captioned: Markdown's emphasis marks ("**Step 1:**", "*really*",
 * "_this_"), inline code's backticks, a table's rule row, heading hashes ("## Intro") and list
 * bullets at a line's start are dropped, and a pipe standing alone (a table's cell border,
 * "Home | About") becomes a lone comma, a short pause no caption shows, so a
 * script pasted from a chat assistant or a notes app is not read out as "asterisk asterisk" or
 * "hash hash" nor captioned with the marks; a link is its text ("[our site](https://…)" is
 * "our site", not the address spelled out). A sign between words ("snake_case", "#1") is kept;
 * an asterisk between numbers becomes "×" (said "times", "mal", "multiplié par"). A line that
 * ends without punctuation before a line that starts anew (a heading, a list item) ends a
 * sentence: a lone "." is put after it, which the voice pauses at and captions do not show
 * ("Faster renders" and "Better captions" on two lines are not read as one phrase); a line
 * wrapped mid-sentence (the next one starts in lower case) runs on.
 */
export function spokenScript(text: string): string {
  const lines = text.split('\n');
  const ended = lines.map((line, i) => {
    const next = lines.slice(i + 1).find((l) => l.trim() !== '');
    const blankBetween = next !== undefined && lines[i + 1]!.trim() === '';
    return next !== undefined && OPEN_END.test(line) && (blankBetween || NEW_LINE_START.test(next)) ? `${line} .` : line;
  });
  return ended
    .join('\n')
    .replace(TABLE_RULE, '')
    .replace(LONE_PIPE, ',')
    .replace(LINK, '$1')
    .replace(LINE_MARK, '$1')
    .replace(EMPHASIS_OPEN, '')
    .replace(EMPHASIS_CLOSE, '')
    .replace(TIMES, '×');
}

/**
 * The script's tokens that captions show, in order (what the preview lists and the video draws),
 * each marked `pageEnd` where spokenScript ended a line's thought with a lone "." (not shown).
 */
export function captionTokens(text: string): { text: string; pageEnd?: boolean }[] {
  // A pause tag is silence, never a caption.
  return withPageEnds(spokenScript(withoutBreaks(text)).split(/\s+/u).map((t) => ({ text: t })));
}

/**
 * The words that captions show (isCaptionWord), a word before a token that is only a
 * sentence's end (the lone "." spokenScript puts after a heading or a list item) marked `pageEnd`.
 */
export function withPageEnds<W extends { text: string; pageEnd?: boolean }>(tokens: readonly W[]): W[] {
  const shown: W[] = [];
  let before = ''; // a dash or opening quote waiting for the word it goes with
  let straightQuotes = 0;
  const attach = (text: string, space: string) => {
    const last = shown[shown.length - 1];
    if (last) shown[shown.length - 1] = { ...last, text: last.text + space + text };
    else before += text + space;
  };
  for (const t of tokens) {
    if (isCaptionWord(t.text)) {
      shown.push(before ? { ...t, text: before + t.text } : t);
      before = '';
    } else if (shown.length && /^[.!?…。！？]$/u.test(t.text)) {
      shown[shown.length - 1] = { ...shown[shown.length - 1]!, pageEnd: true };
    } else if (LONE_DASH.test(t.text)) {
      // A dash between words is part of what the reader reads: it stays, with the word before it.
      attach(t.text, ' ');
    } else if (CLOSING_QUOTE.test(t.text) || (STRAIGHT_QUOTE.test(t.text) && straightQuotes++ % 2 === 1)) {
      attach(t.text, '');
    } else if (OPENING_QUOTE.test(t.text) || STRAIGHT_QUOTE.test(t.text)) {
      before += t.text;
    }
  }
  return shown;
}

const LONE_DASH = /^[-‐‒–—―]+$/u;
const STRAIGHT_QUOTE = /^["']+$/u;
const OPENING_QUOTE = /^[„“‘«‹「『]+$/u;
const CLOSING_QUOTE = /^[”’»›」』]+$/u;

export function hasNoSpaceScript(text: string): boolean {
  return NO_SPACE.test(text);
}

/** The direction of a word's first strong (letter) character; null for digits, emoji, punctuation. */
export function wordDirection(text: string): 'ltr' | 'rtl' | null {
  for (const ch of text) {
    if (RTL.test(ch)) return 'rtl';
    if (STRONG.test(ch)) return 'ltr';
  }
  return null;
}

/**
 * What separates two caption words: nothing between two characters of a no-space script, nor
 * between one and a digit ("2026年3月", never "2026 年 3 月"), else a space.
 */
export function wordGap(before: string, after: string): '' | ' ' {
  const a = Array.from(before);
  const last = a[a.length - 1] ?? '';
  const first = Array.from(after)[0] ?? '';
  const cjk = (c: string) => NO_SPACE.test(c);
  const digit = (c: string) => /\p{Nd}/u.test(c);
  return (cjk(last) || digit(last)) && (cjk(first) || digit(first)) && (cjk(last) || cjk(first)) ? '' : ' ';
}

/** Words joined as they read: spaces only where the script has them. */
export function joinWords(words: readonly string[]): string {
  let out = '';
  words.forEach((w, i) => {
    out += (i ? wordGap(words[i - 1]!, w) : '') + w;
  });
  return out;
}

/**
 * Visual left-to-right order of a line's words (word-level bidi): a line takes the direction of
 * its first strong word; in a right-to-left line the words run from the right, and a run of
 * left-to-right words inside it (a name, a number) keeps its own order, and vice versa.
 * `dirs` is each word's resolved direction (a neutral word takes the one before it).
 */
export function visualOrder(words: readonly string[]): { order: number[]; rtl: boolean; dirs: ('ltr' | 'rtl')[] } {
  const dirs = words.map(wordDirection);
  const base = dirs.find((d) => d !== null) ?? 'ltr';
  const rtl = base === 'rtl';
  // Numbers follow the strong word before them (the line's direction at the start); other
  // neutral words (emoji, dashes) take the direction of the words on both sides when those
  // agree, else the line's (as the Unicode bidi algorithm resolves them).
  const strongBefore = (i: number) => dirs.slice(0, i).reverse().find((d) => d !== null) ?? base;
  const strongAfter = (i: number) => dirs.slice(i + 1).find((d) => d !== null) ?? base;
  const resolved = dirs.map((d, i): 'ltr' | 'rtl' => {
    if (d) return d;
    if (/\p{N}/u.test(words[i]!)) return strongBefore(i);
    return strongBefore(i) === strongAfter(i) ? strongBefore(i) : base;
  });
  const runs: number[][] = [];
  resolved.forEach((d, i) => {
    const inRun = d !== base;
    const last = runs[runs.length - 1];
    if (inRun && last && resolved[last[last.length - 1]!] !== base) last.push(i);
    else runs.push([i]);
  });
  // Embedded runs are reversed relative to the line; the whole line is reversed when RTL.
  const order = runs.flatMap((r) => (resolved[r[0]!] !== base ? [...r].reverse() : r));
  return { order: rtl ? order.reverse() : order, rtl, dirs: resolved };
}

const segmenters = new Map<string, Intl.Segmenter>();

/**
 * Caption words from the speech timeline's words: a token of Chinese or Japanese (a whole
 * sentence, written without spaces) is split into its words (the runtime's ICU dictionary
 * segmenter, in Node and in the browser alike), punctuation kept with the word before it, and the
 * token's time shared out by characters. Other words pass unchanged.
 */
export function captionWords(words: readonly TimedWord[]): TimedWord[] {
  const out: TimedWord[] = [];
  for (const w of words) {
    if (!NO_SPACE.test(w.text) || Array.from(w.text).length <= 2) {
      out.push(w);
      continue;
    }
    let seg = segmenters.get('ja');
    if (!seg) segmenters.set('ja', (seg = new Intl.Segmenter('ja', { granularity: 'word' })));
    const pieces: string[] = [];
    for (const s of seg.segment(w.text)) {
      const last = pieces[pieces.length - 1];
      // Punctuation and spaces stay with the piece before them (a line never starts with "。"),
      // and a run of other writing stays whole ("USB-C", "3.5", never "USB- C").
      if (last !== undefined && (!s.isWordLike || (!NO_SPACE.test(s.segment) && !NO_SPACE.test(last)))) pieces[pieces.length - 1] = last + s.segment;
      else pieces.push(s.segment);
    }
    // Such a run of letters then goes with the Chinese or Japanese on both sides of it: it was
    // written against them, and no space may come between them (digits need no help, wordGap).
    for (let i = pieces.length - 1; i >= 0; i--) {
      if (NO_SPACE.test(pieces[i]!) || /^[\p{Nd}\p{P}]+$/u.test(pieces[i]!)) continue;
      const to = Math.min(pieces.length, i + 2);
      const from = Math.max(0, i - 1);
      pieces.splice(from, to - from, pieces.slice(from, to).join(''));
      i = from;
    }
    const total = Array.from(w.text).length;
    let used = 0;
    for (const p of pieces) {
      const start = w.start + ((w.end - w.start) * used) / total;
      used += Array.from(p).length;
      out.push({ text: p, start, end: w.start + ((w.end - w.start) * used) / total });
    }
    if (w.pageEnd) out[out.length - 1]!.pageEnd = true;
  }
  return out;
}
