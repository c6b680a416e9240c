// Japanese kanji read as words: espeak-ng's Japanese reads kana only (each kanji was said as
// "Chinese letter"). kuromoji (a morphological analyser; its IPADIC dictionary ships in its npm
// package) splits every run of Japanese writing that holds kanji into words and gives each its
// pronunciation in katakana, which the voice is given in hiragana; captions keep the kanji (the
// rewrite maps every reading back to its run, espeak-text.ts). The dictionary is loaded once, on
// the first Japanese text with kanji (~1 s, ~90 MB), in the thread that prepares espeak's text.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import kuromoji, { type Tokenizer } from 'kuromoji';
import type { Rewrite } from './text-rules.js';

const require = createRequire(import.meta.url);
let tokenizer: Tokenizer | null = null;
let loading: Promise<Tokenizer> | null = null;

/** A run of Japanese writing (kanji, kana, the long-vowel mark, 々) with at least one kanji. */
const KANJI_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]*[\p{Script=Han}々〆][\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]*/gu;

export const hasKanji = (text: string) => /\p{Script=Han}/u.test(text);

/** Loads kuromoji's dictionary (once); resolves when readings() can be used. */
export function loadJapaneseReadings(): Promise<Tokenizer> {
  loading ??= new Promise<Tokenizer>((resolve, reject) => {
    const dicPath = join(dirname(require.resolve('kuromoji/package.json')), 'dict');
    kuromoji.builder({ dicPath }).build((err, t) => {
      if (err) reject(new Error(`The Japanese dictionary (kuromoji) could not be loaded: ${err.message}`));
      else resolve((tokenizer = t));
    });
  });
  loading.catch(() => (loading = null)); // tried again on the next Japanese text
  return loading;
}

/** Katakana to hiragana (the long-vowel mark and other signs stay). */
export const hiragana = (s: string) => s.replace(/[\u30A1-\u30F6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));

/** The text's kanji words in hiragana as said; kana, digits and signs as written. Needs the dictionary loaded. */
export function readings(text: string): string {
  if (!tokenizer) throw new Error('The Japanese dictionary is not loaded yet.');
  return tokenizer
    .tokenize(text)
    .map((t) => (t.pronunciation && t.pronunciation !== '*' ? hiragana(t.pronunciation) : t.surface_form))
    .join('');
}

/** The rewrite of every run with kanji into its readings, once the dictionary is loaded (null before). */
export function readingsRewrite(): Rewrite | null {
  return tokenizer ? [KANJI_RUN, (m) => readings(m[0])] : null;
}
