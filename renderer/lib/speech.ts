// Estimated spoken duration of a script for a voice. The voice catalog may carry a speaking
// rate in words per minute (`rate`, or espeak's `espeak.rate`); when it does not, a default
// per language is used (documented in docs/ui.md).
import { breakSeconds, withoutBreaks, type Voice } from '../../shared/contract/index.js';
import { spokenScript } from '../../shared/scene/index.js';

export const DEFAULT_WPM_BY_LANGUAGE: Record<string, number> = {
  en: 160,
  de: 148,
  fr: 155,
  es: 165,
  it: 160,
  pt: 160,
  nl: 150,
  ja: 140,
  zh: 140,
};
export const FALLBACK_WPM = 150;

type VoiceWithRate = Voice & { rate?: number; espeak?: { rate?: number } };

export function wordsPerMinute(voice: Voice | null | undefined): number {
  if (!voice) return FALLBACK_WPM;
  const v = voice as VoiceWithRate;
  const rate = typeof v.rate === 'number' ? v.rate : v.espeak?.rate;
  if (typeof rate === 'number' && rate > 40 && rate < 600) return rate;
  return DEFAULT_WPM_BY_LANGUAGE[voice.locale.split('-')[0]?.toLowerCase() ?? ''] ?? FALLBACK_WPM;
}

export function countWords(text: string): number {
  const m = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu);
  return m ? m.length : 0;
}

/** Seconds, including a short pause per sentence end (as spoken: a heading or list item ends one too). */
export function estimateSeconds(text: string, voice: Voice | null | undefined): number {
  const spoken = spokenScript(withoutBreaks(text));
  const words = countWords(spoken);
  if (words === 0) return 0;
  const pauses = (spoken.match(/[.!?…]+(\s|$)/g) ?? []).length * 0.35;
  // A pause tag lasts as long as it says.
  return (words / wordsPerMinute(voice)) * 60 + pauses + breakSeconds(text);
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}:${String(s % 60).padStart(2, '0')}` : `0:${String(s).padStart(2, '0')}`;
}
