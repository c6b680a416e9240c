// What every language's text rules are made of (english-text.ts, language-text.ts): a rewrite,
// the patterns of a number and of a word list, and the rules each language fills with its words.

/** A rewrite: every match of `pattern` (flags gu) is given to espeak as `said(match)`. */
export type Rewrite = [pattern: RegExp, said: (m: RegExpExecArray) => string];

/** A text matched as written inside a regular expression. */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Any of the words, the longest first ("Mio." before "Mio"). */
export const alternation = (words: Iterable<string>) => [...words].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');

/** A number as written, with thousands and decimal marks either way ("1,000.50", "3,5", "1.000"). */
export const NUMBER = String.raw`(?:\d[\d.,]*\d|\d)`;

/** The word before a match, in lower case ("am" before "03.04.2026"). */
export const wordBefore = (m: RegExpExecArray) => /(\p{L}+)\s*$/u.exec(m.input.slice(0, m.index))?.[1]?.toLowerCase() ?? '';

/** Numbers around a dash that are a phone number or a code, not a range: a leading zero ("030-1234") or three digits then four ("555-1234"). */
const isCode = (m: RegExpExecArray) => {
  const [before, after] = [m.input.slice(0, m.index), m.input.slice(m.index + m[0].length)];
  return /(?<![\d.,])0\d+$/.test(before) || /^0\d/.test(after) || (m[0] === '-' && /(?<![\d.,-])\d{3}$/.test(before) && /^\d{4}(?!\d|[.,-]\d)/.test(after));
};

/** A full stop that ends a text or a line stays, so the sentence still ends there. */
export const stopKept = (m: RegExpExecArray) => (m[0].endsWith('.') && /^[ \t]*(?:\n|$)/.test(m.input.slice(m.index + m[0].length)) ? '.' : '');

/** A range's dash said as `to` ("5-10", "9–5"), also after `alsoAfter` ("10 o'clock-11"), unless the numbers are a code. */
export function rangeRewrite(to: string, alsoAfter = ''): Rewrite {
  const before = String.raw`(?<![\p{L}\p{N}.,:/-])${NUMBER}%?${alsoAfter ? `|${alsoAfter}` : ''}`;
  return [new RegExp(String.raw`(?<=${before})(?:-|\s?[–—]\s?)(?=${NUMBER}(?![\p{N}]|[-–][\p{N}]|[:/]\d))`, 'gu'), (m) => (isCode(m) ? m[0] : ` ${to} `)];
}

/** Units after a number said as words, for 1 and for more ("10 kg" was "ten K G"). */
export function unitsRewrite(units: Record<string, [one: string, many: string]>): Rewrite {
  return [new RegExp(String.raw`(?<=(?<![\p{L}\p{N}.,])(${NUMBER})\s?)(${alternation(Object.keys(units))})(?![\p{L}\p{N}])`, 'gu'), (m) => {
    const [one, many] = units[m[2]!]!;
    return `${/\d/.test(m.input[m.index - 1]!) ? ' ' : ''}${m[1] === '1' ? one : many}${stopKept(m)}`;
  }];
}

/** A roman numeral's value, null when the letters are none ("IIII", "VX"). */
export function romanValue(s: string): number | null {
  if (!/^(?:XC|L?X{0,3}|XL)(?:IX|V?I{0,3}|IV)$/.test(s)) return null;
  const v: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const [a, b] = [v[s[i]!]!, v[s[i + 1]!] ?? 0];
    n += a < b ? -a : a;
  }
  return n;
}

/**
 * Roman numerals from II to LXXXIX after a word, which espeak said with "roman" ("world war
 * roman two", "Ludwig römisch vierzehn") or spelled: a number after a `counted` word ("Chapter
 * IV"), a ruler's ordinal after a name ("Henry VIII"; a name has two letters or more, so
 * Polish "W XXI wieku" is no name). "XL" and a lone "I" or "X" stay.
 */
export function romanRewrite(counted: Iterable<string>, afterName: (n: number) => string | null): Rewrite {
  const counting = new Set([...counted].map((w) => w.toLowerCase()));
  return [/(?<=(?<![\p{L}])(\p{L}[\p{L}'’-]+)\s+)(?!X{1,3}L\b)([IVXL]{2,7})(?![\p{L}\p{N}])/gu, (m) => {
    const n = romanValue(m[2]!);
    if (n === null || n < 2 || n > 89) return m[0];
    if (counting.has(m[1]!.toLowerCase())) return String(n);
    return /^\p{Lu}/u.test(m[1]!) ? (afterName(n) ?? String(n)) : m[0];
  }];
}
