// What espeak (and every voice read or phonemized through it) is given for a script: the
// writings it reads wrongly in the voice's language rewritten as said (english-text.ts,
// language-text.ts), signs its dictionary leaves unsaid written as words, and the way back from a
// text position espeak reports to the script's, so captions light the script's own words.
import { englishRewrites } from './english-text.js';
import { languageRewrites } from './language-text.js';
import type { LexiconEntry } from '../../../shared/contract/index.js';
import { alternation, escapeRegExp, type Rewrite } from './text-rules.js';
import { japaneseReadings, readingsRewrite } from './japanese-readings.js';

/**
 * Signs that espeak's dictionary for a language leaves unsaid, by espeak voice, and the word said
 * for each (measured: "7 € 7" took no longer than "7 7"; "3 * 4" is shown "3 × 4"). Japanese in
 * kana: espeak's Japanese reads no kanji. Left unsaid on purpose: "/", "^", "\", "~", a lone "|".
 */
export const UNSAID_SIGNS: Record<string, Record<string, string>> = {
  fr: { '&': 'et', '§': 'paragraphe' },
  es: { '×': 'por', '÷': 'entre' },
  it: { '×': 'per', '÷': 'diviso' },
  pl: { '€': 'euro' },
  ja: { '×': 'かける', '÷': 'わる', '€': 'ユーロ', '$': 'ドル', '£': 'ポンド', '¥': 'えん', '°': 'ど' },
  cmn: { '×': '乘以', '÷': '除以', '€': '欧元', '$': '美元', '£': '英镑', '¥': '元', '°': '度' },
};

/**
 * The creator's lexicon as one rewrite: each entry's text as a whole word in any case ("nginx",
 * "NGINX") is said as its `say`. It comes first, so what it says is then read like the script
 * (numbers, units); its words point back at the written word, which captions keep.
 */
function lexiconRewrite(lexicon: readonly LexiconEntry[]): Rewrite | null {
  if (!lexicon.length) return null;
  const said = new Map(lexicon.map((e) => [e.text.trim().toLowerCase(), e.say.trim()]));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternation(said.keys())})(?![\\p{L}\\p{N}])`, 'giu');
  return [pattern, (m) => ` ${said.get(m[0].toLowerCase()) ?? m[0]} `];
}

/** Every rewrite of an espeak voice (its name without a variant: "en-us", "es", "cmn"). */
function rewritesOf(espeakVoice: string, readings?: ReadonlyMap<string, string>): Rewrite[] {
  const lang = espeakVoice.split('+')[0]!;
  const signs = Object.entries(UNSAID_SIGNS[lang] ?? {}).map(([sign, word]): Rewrite => [new RegExp(escapeRegExp(sign), 'gu'), () => ` ${word} `]);
  // The language's writings first: a sign they move ("€5" to "5 €") is then given its word.
  // Japanese kanji then as words in kana (their readings found beforehand: espeakReady).
  const language = lang === 'en' || lang.startsWith('en-') ? englishRewrites(lang) : languageRewrites(lang);
  return [...language, ...(readings?.size ? [readingsRewrite(readings)] : []), ...signs];
}

/**
 * espeakText with what it needs looked up first: for Japanese, the readings of the runs with
 * kanji in the text as the language's rewrites leave it (those run before the readings' rewrite).
 */
export async function espeakReady(text: string, espeakVoice: string, lexicon?: readonly LexiconEntry[]): Promise<ReturnType<typeof espeakText>> {
  const plain = espeakText(text, espeakVoice, undefined, lexicon);
  if (espeakVoice.split('+')[0] !== 'ja' || !/\p{Script=Han}/u.test(plain.text)) return plain;
  return espeakText(text, espeakVoice, await japaneseReadings(plain.text), lexicon);
}

/**
 * The text as espeak is given it in a voice, and the way back from a text position espeak
 * reports (in characters, from 1) to the script's: a rewritten writing's words all point at its
 * first character, so its caption word is lit while they are said.
 */
export function espeakText(text: string, espeakVoice: string, readings?: ReadonlyMap<string, string>, lexicon: readonly LexiconEntry[] = []): { text: string; scriptPosition(pos: number): number } {
  const scriptLength = Array.from(text).length;
  let chars: string[] | undefined; // the text so far, once a rewrite has matched
  let from: number[] = []; // script index of each character given to espeak
  let s = text;
  // Each rewrite reads what the ones before it wrote ("c. 1900" is "circa 1900", then a year).
  const own = lexiconRewrite(lexicon);
  const rewrites = rewritesOf(espeakVoice, readings);
  for (const [pattern, said] of own ? [own, ...rewrites] : rewrites) {
    pattern.lastIndex = 0;
    if (!pattern.test(s)) continue;
    const was = chars ?? Array.from(text);
    if (!chars) from = was.map((_, i) => i);
    const nextChars: string[] = [];
    const nextFrom: number[] = [];
    const keep = (i: number) => {
      nextChars.push(was[i]!);
      nextFrom.push(from[i]!);
    };
    let at = 0; // in characters (code points), as `was`
    let consumed = 0; // in UTF-16 units of s
    pattern.lastIndex = 0;
    for (let m = pattern.exec(s); m; m = pattern.exec(s)) {
      const start = at + Array.from(s.slice(consumed, m.index)).length;
      for (; at < start; at++) keep(at);
      const origin = from[start] ?? scriptLength;
      for (const ch of Array.from(said(m))) {
        nextChars.push(ch);
        nextFrom.push(origin);
      }
      at = start + Array.from(m[0]).length;
      consumed = m.index + m[0].length;
      if (m[0].length === 0) pattern.lastIndex++;
    }
    for (; at < was.length; at++) keep(at);
    chars = nextChars;
    from = nextFrom;
    s = chars.join('');
  }
  if (!chars) return { text, scriptPosition: (pos) => pos };
  return {
    text: s,
    scriptPosition: (pos) => (pos < 1 ? pos : pos <= from.length ? from[pos - 1]! + 1 : scriptLength + 1),
  };
}
