// Which language a script is written in, well enough to tell a creator that the chosen voice
// speaks another one (an English voice spells Chinese out letter by letter). No model and no
// network: the writing system decides where it is unique to a language (kana, hangul, Thai...),
// and within Latin script the share of each language's most frequent function words decides.
// Unsure (short text, few function words, a close call) means no answer, and so no warning.
import type { JobWarning } from '../contract/index.js';
import { withoutBreaks } from '../contract/breaks.js';

export interface DetectedLanguage {
  /** ISO 639-1 code: "en", "zh"... */
  language: string;
  /** The writing system the text is mostly in. */
  script: Script;
}

export type Script = 'Latin' | 'Cyrillic' | 'Greek' | 'Arabic' | 'Hebrew' | 'Han' | 'Kana' | 'Hangul' | 'Devanagari' | 'Thai';

const SCRIPTS: readonly [Script, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
];

/** The language a script alone tells (null: several languages share it, e.g. Latin, Cyrillic). */
const SCRIPT_LANGUAGE: Partial<Record<Script, string>> = {
  Greek: 'el', Hebrew: 'he', Hangul: 'ko', Kana: 'ja', Han: 'zh', Devanagari: 'hi', Thai: 'th', Arabic: 'ar', Cyrillic: 'ru',
};

/** The writing system of each language a voice may speak (Latin when absent). */
const LANGUAGE_SCRIPTS: Record<string, readonly Script[]> = {
  zh: ['Han'], ja: ['Han', 'Kana'], ko: ['Hangul'], ar: ['Arabic'], fa: ['Arabic'], ur: ['Arabic'], he: ['Hebrew'],
  ru: ['Cyrillic'], uk: ['Cyrillic'], bg: ['Cyrillic'], sr: ['Cyrillic', 'Latin'], el: ['Greek'], hi: ['Devanagari'], th: ['Thai'],
};

/** The most frequent short words of each Latin-script language, chosen to overlap little. */
const FUNCTION_WORDS: Record<string, string> = {
  en: 'the and of to is that it you for was with on are this be have not but they we what which will your from there their would been',
  de: 'der die und das ist nicht ich sie es zu den mit sich des auf für ein eine dem wir auch wird werden sind noch aber',
  fr: 'le la les et des est une du que qui dans pour pas sur au vous nous avec ce sont ont mais plus elle il je',
  es: 'el los las y que del se por una con para es está como pero sus más muy este esta hay fue también nosotros',
  it: 'il che di è gli della per non una sono con del anche questo nella come ma più alla dei ci siamo hanno',
  pt: 'o os e que não uma com para é do da dos das em um mais foi está são também ao nos muito você isso neste nesta na mas seu sua',
  nl: 'de het een en van is dat niet op te zijn voor met die ik je we er maar ook aan wordt bij zo',
  pl: 'i w nie się na że z to jest do jak co ale o tak jego już są przez dla po może czy tylko',
};
const WORD_SETS = Object.fromEntries(Object.entries(FUNCTION_WORDS).map(([l, w]) => [l, new Set(w.split(' '))]));

/** Letters needed before any answer: a name or a greeting says too little. */
const MIN_LETTERS = 12;

export function detectLanguage(text: string): DetectedLanguage | null {
  const counts = new Map<Script, number>();
  let letters = 0;
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    const s = SCRIPTS.find(([, re]) => re.test(ch))?.[0];
    if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  if (letters < MIN_LETTERS) return null;
  const [script, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!script || !n || n < letters * 0.6) {
    // Japanese mixes kanji and kana: together they are the text.
    const jp = (counts.get('Han') ?? 0) + (counts.get('Kana') ?? 0);
    if (counts.get('Kana') && jp >= letters * 0.6) return { language: 'ja', script: 'Kana' };
    return null;
  }
  if (script === 'Han' && (counts.get('Kana') ?? 0) > 0) return { language: 'ja', script: 'Kana' };
  if (script !== 'Latin') return { language: SCRIPT_LANGUAGE[script]!, script };
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 4) return null;
  const scores = Object.entries(WORD_SETS)
    .map(([lang, set]) => [lang, words.filter((w) => set.has(w)).length] as const)
    .sort((a, b) => b[1] - a[1]);
  const [best, second] = scores;
  // Function words make up a third or more of running text; ask for a clear lead.
  if (!best || best[1] < Math.max(2, words.length * 0.12) || best[1] < (second?.[1] ?? 0) * 1.5) return null;
  return { language: best[0], script };
}

const languageName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
};

/** Whether a voice of `voiceLang` reads the writing system `script` (Japanese voices read kanji too). */
function readsScript(voiceLang: string, script: Script): boolean {
  const scripts = LANGUAGE_SCRIPTS[voiceLang] ?? ['Latin'];
  return scripts.includes(script) || (script === 'Han' && scripts.includes('Kana'));
}

/**
 * The warning for a script whose language the voice does not speak, though it reads its writing
 * (German to an English voice: read with English pronunciation), or null. Only a confident
 * detection warns; where only the script is known (Cyrillic), a voice of that script never does.
 * Writing the voice cannot read at all is refused instead: unreadableScript.
 */
export function languageMismatch(text: string, voiceLocale: string): { language: string; message: string } | null {
  const found = detectLanguage(text);
  if (!found) return null;
  const voiceLang = voiceLocale.split('-')[0]!.toLowerCase();
  if (found.language === voiceLang || !readsScript(voiceLang, found.script)) return null;
  if (found.script === 'Cyrillic' || found.script === 'Arabic' || found.script === 'Han') return null;
  return {
    language: found.language,
    message:
      `The script looks like ${languageName(found.language)}, but the voice speaks ${languageName(voiceLang)} (${voiceLocale}): ` +
      `it will be read with ${languageName(voiceLang)} pronunciation. Choose a voice that speaks ${languageName(found.language)}, or render anyway.`,
  };
}

/**
 * Why a script cannot be rendered with a voice, or null: it is written in a writing system the
 * voice's language does not use (Arabic to an English voice was read as near-silence, Chinese as
 * "Chinese letter" over and over). Names the catalog's voices that speak it, or says none does.
 */
export function unreadableScript(
  text: string,
  voice: { name: string; locale: string },
  voices: readonly { name: string; locale: string }[] = [],
): { language: string; message: string } | null {
  const found = detectLanguage(text);
  if (!found) return null;
  const voiceLang = voice.locale.split('-')[0]!.toLowerCase();
  if (found.language === voiceLang || readsScript(voiceLang, found.script)) return null;
  const language = languageName(found.language);
  const speakers = voices.filter((v) => v.locale.split('-')[0]!.toLowerCase() === found.language).map((v) => v.name);
  return {
    language: found.language,
    message:
      `the script is written in ${language}, which the voice ${voice.name} (${voice.locale}) cannot read; ` +
      (speakers.length ? `choose a voice that speaks ${language}: ${speakers.slice(0, 4).join(', ')}` : `no voice of this studio speaks ${language}`),
  };
}

/** The job warnings of a script for a voice (the server stores them on the job; the editor shows the same). */
export function scriptWarnings(script: string, voice: { locale: string; engine?: string }): JobWarning[] {
  const text = withoutBreaks(script); // a pause tag's English words are no part of the script's language
  const voiceLocale = voice.locale;
  const m = languageMismatch(text, voiceLocale);
  return m ? [{ code: 'language_mismatch', message: m.message, language: m.language, voiceLocale }] : [];
}
