// How long a script takes to say in a voice: the one estimate the app shows (a scene's length in
// the script editor, the video's), from the voice's measured pace (`pace` in resources/voices.json,
// measured by tools/engine/voice-pace.ts on the narration an engine renders). A script is counted
// in spoken units: a word where words are spaced, a syllable in Chinese, a mora in Japanese
// (a kanji counts as the morae its reading has on average), plus a pause per sentence.
import type { Pace } from '../contract/index.js';
import { spokenScript } from '../scene/scripts.js';

export type { Pace };

/**
 * For voices not measured (a neural pack measured only once downloaded): typical of the measured
 * voices of each language.
 */
export const DEFAULT_PACE: Record<string, Pace> = {
  en: { unitsPerSecond: 3.2, sentencePauseSeconds: 0.3 },
  de: { unitsPerSecond: 2.5, sentencePauseSeconds: 0.25 },
  fr: { unitsPerSecond: 3.1, sentencePauseSeconds: 0.3 },
  es: { unitsPerSecond: 2.7, sentencePauseSeconds: 0.4 },
  it: { unitsPerSecond: 2.9, sentencePauseSeconds: 0.5 },
  pt: { unitsPerSecond: 2.7, sentencePauseSeconds: 0.5 },
  nl: { unitsPerSecond: 2.8, sentencePauseSeconds: 0.12 },
  pl: { unitsPerSecond: 2.1, sentencePauseSeconds: 0.3 },
  ja: { unitsPerSecond: 6.7, sentencePauseSeconds: 0.35 },
  zh: { unitsPerSecond: 3.3, sentencePauseSeconds: 0.35 },
  ar: { unitsPerSecond: 1.5, sentencePauseSeconds: 0.07 },
};
const FALLBACK_PACE: Pace = { unitsPerSecond: 2.8, sentencePauseSeconds: 0.3 };

/** Morae a kanji is read with, on average, in Japanese text (its words' readings in kana). */
const KANJI_MORAE = 1.8;
/** Kana that join the mora before them (small ya, yu, yo and vowels). */
const SMALL_KANA = /[ゃゅょぁぃぅぇぉゎャュョァィゥェォヮ]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々]/u;
const SENTENCE_END = /[.!?…]+(?=\s|$)|[。！？]+/gu;

/** The spoken units of a script in a language ("en", "ja"…): see the head of this file. */
export function spokenUnits(text: string, language: string): number {
  let units = 0;
  for (const token of spokenScript(text).match(/[\p{L}\p{N}ー々][\p{L}\p{N}\p{M}'’ー々-]*/gu) ?? []) {
    if (!CJK.test(token)) {
      // A number is said as several words ("2026": "twenty twenty-six").
      units += /^\d/.test(token) ? Math.ceil(token.replace(/\D/g, '').length / 2) : 1;
      continue;
    }
    for (const ch of token) {
      if (/\p{Script=Han}|々/u.test(ch)) units += language === 'ja' ? KANJI_MORAE : 1;
      else if (/[\p{Script=Hiragana}\p{Script=Katakana}ー]/u.test(ch)) units += SMALL_KANA.test(ch) ? 0 : 1;
      else if (/\p{Script=Hangul}/u.test(ch)) units += 1;
      else if (/\p{N}/u.test(ch)) units += 1;
    }
  }
  return units;
}

/** Sentences of a script as spoken (a heading or list item ends one too; so does the script's end). */
export function sentenceEnds(text: string): number {
  const spoken = spokenScript(text).trim();
  const ends = (spoken.match(SENTENCE_END) ?? []).length;
  return SENTENCE_END_AT_END.test(spoken) ? ends : ends + 1;
}
const SENTENCE_END_AT_END = /(?:[.!?…]|[。！？])["'»)\]」』”’）]*$/u;

/** The pace of a voice: its own when measured, else its language's. */
export function paceOf(voice: { locale: string; pace?: Pace } | null | undefined): Pace {
  if (voice?.pace) return voice.pace;
  return DEFAULT_PACE[voice?.locale.split('-')[0]!.toLowerCase() ?? ''] ?? FALLBACK_PACE;
}

/** Seconds the voice takes to say the script (0 for nothing to say). */
export function estimateSpeechSeconds(text: string, voice: { locale: string; pace?: Pace } | null | undefined): number {
  const language = voice?.locale.split('-')[0]!.toLowerCase() ?? 'en';
  const units = spokenUnits(text, language);
  if (units === 0) return 0;
  const pace = paceOf(voice);
  return units / pace.unitsPerSecond + sentenceEnds(text) * pace.sentencePauseSeconds;
}
