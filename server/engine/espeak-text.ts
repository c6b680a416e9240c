// What espeak is given for a script: signs its dictionary for a language leaves unsaid written
// as words, and a few English writings it reads wrongly rewritten, with the way back from a text
// position espeak reports to the script's, so captions light the script's own words.

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
  ja: { '×': 'かける', '÷': 'わる', '€': 'ユーロ', '$': 'ドル', '£': 'ポンド', '°': 'ど' },
  cmn: { '×': '乘以', '÷': '除以', '€': '欧元', '$': '美元', '£': '英镑', '°': '度' },
};

/** A rewrite: every match of `pattern` (flags gu) is given to espeak as `said(match)`. */
type Rewrite = [pattern: RegExp, said: (m: RegExpExecArray) => string];

const CURRENCIES: Record<string, [one: string, many: string]> = { $: ['dollar', 'dollars'], '€': ['euro', 'euros'], '£': ['pound', 'pounds'] };
const SCALES: Record<string, string> = { K: 'thousand', k: 'thousand', M: 'million', B: 'billion', bn: 'billion' };

/**
 * English writings espeak reads wrongly (heard through its phonemes): an amount was "dollar
 * five" ("$5"), "dollar five M" ("$5M"), "pound two B N" ("£2bn"); a title's full stop was a
 * sentence's end ("Mr. | Smith", a pause), "vs." was "V S", "2x faster" "two ex faster", "24/7"
 * "twenty-four slash seven", "~5" "tilde five", "#1" "hash one", "#launch" "hash hashtag".
 */
const ENGLISH: Rewrite[] = [
  [/(?<![\p{L}\p{N}])([$€£])\s?(\d[\d,]*(?:\.\d+)?)(?:\s?(thousand|million|billion|trillion|bn|[KkMB])\b)?/gu, (m) => {
    const scale = m[3] ? (SCALES[m[3]] ?? m[3]) : '';
    const [one, many] = CURRENCIES[m[1]!]!;
    return `${m[2]}${scale ? ` ${scale}` : ''} ${m[2] === '1' && !scale ? one : many}`;
  }],
  [/\b(Mr|Mrs|Ms|Dr|St|Prof|Jr|Sr)\.(?=\s+\p{Lu})/gu, (m) => m[1]!],
  [/\bvs\.?(?=\s)/gu, () => 'versus'],
  [/\bNo\.(?=\s*\d)/gu, () => 'number '],
  [/(?<=\d)x(?=[\s,.;:!?]|$)/gu, () => ' times'],
  [/\b24\/7\b/gu, () => '24 7'],
  [/~(?=\s*\d)/gu, () => 'about '],
  [/(?<=^|\s)#(?=\d)/gu, () => 'number '],
  [/(?<=^|\s)#(?=\p{L})/gu, () => ''],
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every rewrite of an espeak voice (its name without a variant: "en-us", "es", "cmn"). */
function rewritesOf(espeakVoice: string): Rewrite[] {
  const lang = espeakVoice.split('+')[0]!;
  const signs = Object.entries(UNSAID_SIGNS[lang] ?? {}).map(([sign, word]): Rewrite => [new RegExp(escape(sign), 'gu'), () => ` ${word} `]);
  return [...signs, ...(lang === 'en' || lang.startsWith('en-') ? ENGLISH : [])];
}

/**
 * The text as espeak is given it in a voice, and the way back from a text position espeak
 * reports (in characters, from 1) to the script's: a rewritten writing's words all point at its
 * first character, so its caption word is lit while they are said.
 */
export function espeakText(text: string, espeakVoice: string): { text: string; scriptPosition(pos: number): number } {
  const rewrites = rewritesOf(espeakVoice).filter(([p]) => {
    p.lastIndex = 0;
    return p.test(text);
  });
  if (!rewrites.length) return { text, scriptPosition: (pos) => pos };
  let chars = Array.from(text);
  const scriptLength = chars.length;
  let from = chars.map((_, i) => i); // script index of each character given to espeak
  for (const [pattern, said] of rewrites) {
    const s = chars.join('');
    const nextChars: string[] = [];
    const nextFrom: number[] = [];
    const keep = (i: number) => {
      nextChars.push(chars[i]!);
      nextFrom.push(from[i]!);
    };
    let at = 0; // in characters (code points), as `chars`
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
    for (; at < chars.length; at++) keep(at);
    chars = nextChars;
    from = nextFrom;
  }
  return {
    text: chars.join(''),
    scriptPosition: (pos) => (pos < 1 ? pos : pos <= from.length ? from[pos - 1]! + 1 : scriptLength + 1),
  };
}
