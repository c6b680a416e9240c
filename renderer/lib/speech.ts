// Estimated spoken duration of a script for a voice: the voice's measured pace (GET /api/voices
// `pace`, else its language's), by the one estimate in shared/language/pace.ts (docs/ui.md); a
// pause tag lasts as long as it says.
import { breakSeconds, withoutBreaks, type Voice } from '../../shared/contract/index.js';
import { estimateSpeechSeconds, paceOf } from '../../shared/language/pace.js';

export function countWords(text: string): number {
  const m = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu);
  return m ? m.length : 0;
}

/** Seconds, including a pause per sentence end (as spoken: a heading or list item ends one too). */
export function estimateSeconds(text: string, voice: Voice | null | undefined): number {
  return estimateSpeechSeconds(withoutBreaks(text), voice) + breakSeconds(text);
}

/** What the estimate is based on, in words ("3.2 words a second"; syllables, morae in Chinese, Japanese). */
export function paceLabel(voice: Voice | null | undefined): string {
  const lang = voice?.locale.split('-')[0] ?? '';
  const unit = lang === 'ja' ? 'morae' : lang === 'zh' ? 'syllables' : 'words';
  return `${paceOf(voice).unitsPerSecond.toFixed(1)} ${unit} a second${voice?.pace ? ' (measured)' : ''}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}:${String(s % 60).padStart(2, '0')}` : `0:${String(s).padStart(2, '0')}`;
}
