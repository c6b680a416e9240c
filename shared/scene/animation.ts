// Turns the speech timeline into presenter poses: mouth shapes from espeak's IPA phonemes,
// blinks on a fixed pseudo-random schedule, and a slow idle sway. Deterministic in time, so
// the preview and the video show the same pose at the same instant.
import type { PresenterPose, SpeechTimeline, TimedPhoneme, Viseme } from './types.js';

const VOWEL_OPEN = /^(a|æ|ʌ|ɑ|ə|ɜ|ɐ|aɪ|aʊ|ɚ|ɶ)/;
const VOWEL_ROUND = /^(o|ɔ|ɒ|oʊ|ø|œ)/;
const VOWEL_CLOSED_ROUND = /^(u|ʊ|w|y|ʏ|ɥ)/;
const VOWEL_SPREAD = /^(i|ɪ|e|ɛ|eɪ|j|ɨ)/;

/** The mouth shape for one espeak phoneme (IPA, with stress and length marks). */
export function visemeOf(phoneme: string): Viseme {
  // Drop stress and length marks and espeak's punctuation (the nasal tilde is a combining mark).
  const p = phoneme.replace(/[ˈˌːˑ'",.%=_-]|\u0303/g, '').trim();
  if (!p) return 'rest';
  if (/^[pbm]/.test(p)) return 'mbp';
  if (/^[fv]/.test(p)) return 'fv';
  if (VOWEL_ROUND.test(p)) return 'o';
  if (VOWEL_CLOSED_ROUND.test(p)) return 'u';
  if (VOWEL_OPEN.test(p)) return 'ai';
  if (VOWEL_SPREAD.test(p)) return 'e';
  // Remaining consonants (t d n s z k g l r h θ ð ʃ ʒ ŋ ...): teeth together, lips apart.
  return 'e';
}

/** Index of the phoneme sounding at time t (binary search), or -1. */
export function phonemeAt(phonemes: readonly TimedPhoneme[], t: number): number {
  let lo = 0;
  let hi = phonemes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const ph = phonemes[mid]!;
    if (t < ph.start) hi = mid - 1;
    else if (t >= ph.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

const BLINK_SECONDS = 0.13;

/** Blink start times: first after 1.6 s, then every 2.4–5 s (seeded, so identical everywhere). */
export function blinkTimes(durationSeconds: number): number[] {
  const out: number[] = [];
  let seed = 0x2f6b1;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let t = 1.6; t < durationSeconds; t += 2.4 + rand() * 2.6) out.push(t);
  return out;
}

export function isBlinking(blinks: readonly number[], t: number): boolean {
  for (const b of blinks) {
    if (b > t) return false;
    if (t < b + BLINK_SECONDS) return true;
  }
  return false;
}

/**
 * Idle motion at time t: zero at t = 0 so the first frame is the rest pose. Only the head moves
 * (the torso stays still), and only by translation, a sway and a nod, so the engine moves its
 * pre-rasterised head layers instead of redrawing them.
 */
export function idleMotion(t: number): Pick<PresenterPose, 'headDx' | 'headDy'> {
  const TAU = Math.PI * 2;
  return {
    headDx: 2.4 * Math.sin((TAU * t) / 4.3),
    headDy: 1.6 * (1 - Math.cos((TAU * t) / 3.1)),
  };
}

/** Precomputed animation of one narration. */
export interface Animation {
  timeline: SpeechTimeline;
  blinks: number[];
}

export function createAnimation(timeline: SpeechTimeline): Animation {
  return { timeline, blinks: blinkTimes(timeline.durationSeconds + 1) };
}

/** The presenter's pose at time t (seconds). */
export function poseAt(anim: Animation, t: number): PresenterPose {
  const i = phonemeAt(anim.timeline.phonemes, t);
  const viseme = i < 0 ? 'rest' : visemeOf(anim.timeline.phonemes[i]!.phoneme);
  return { viseme, blink: isBlinking(anim.blinks, t), ...idleMotion(t) };
}
