// Turns the speech timeline into presenter poses: mouth shapes from espeak's IPA phonemes,
// blinks on a fixed pseudo-random schedule, and a slow idle sway. Deterministic in time, so
// the preview and the video show the same pose at the same instant.
import type { PresenterPose, SpeechTimeline, TimedPhoneme, Viseme } from './types.js';

const VOWEL_OPEN = /^(a|æ|ʌ|ɑ|ə|ɜ|ɐ|aɪ|aʊ|ɚ|ɶ)/;
const VOWEL_ROUND = /^(o|ɔ|ɒ|oʊ|ø|œ)/;
const VOWEL_CLOSED_ROUND = /^(u|ʊ|w|y|ʏ|ɥ)/;
const VOWEL_SPREAD = /^(i|ɪ|e|ɛ|eɪ|ɨ)/;
/** Consonants said with the lips pushed forward (sh, ch, j, English r). */
const POSTALVEOLAR = /^(ʃ|ʒ|tʃ|dʒ|ɹ|r)/;

/** A phoneme without espeak's stress and length marks and punctuation ('' for a pause). */
export function barePhoneme(phoneme: string): string {
  return phoneme.replace(/[ˈˌːˑ'",.%=_-]|\u0303/g, '').trim();
}

/** The mouth shape for one espeak phoneme (IPA, with stress and length marks). */
export function visemeOf(phoneme: string): Viseme {
  const p = barePhoneme(phoneme);
  if (!p) return 'rest';
  if (/^[pbm]/.test(p)) return 'mbp';
  if (/^[fv]/.test(p)) return 'fv';
  if (POSTALVEOLAR.test(p)) return 'u';
  if (VOWEL_ROUND.test(p)) return 'o';
  if (VOWEL_CLOSED_ROUND.test(p)) return 'u';
  if (VOWEL_OPEN.test(p)) return 'ai';
  if (VOWEL_SPREAD.test(p)) return 'e';
  // Remaining consonants (t d n s z k g l h θ ð ŋ j ...): teeth together, lips just apart.
  return 'etc';
}

/**
 * How open, wide and rounded each shape is (0–1): what "between two shapes" means. The mouth
 * passes through the shape nearest the midpoint on its way from one to the next.
 */
const SHAPE: Record<Viseme, readonly [open: number, wide: number, round: number]> = {
  rest: [0, 0.5, 0], mbp: [0, 0.45, 0.1], etc: [0.25, 0.6, 0], fv: [0.2, 0.6, 0],
  e: [0.45, 0.9, 0], ai: [1, 0.7, 0], o: [0.7, 0.35, 0.8], u: [0.3, 0.2, 1],
};
/** Shapes that stand for a general mouth opening (lips closed or on the teeth are articulations, not passing shapes). */
const PASSING: readonly Viseme[] = ['etc', 'e', 'ai', 'o', 'u'];

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

/** The shape shown on the way from `a` to `b`: the passing shape nearest their midpoint, or `b` itself. */
export function betweenShape(a: Viseme, b: Viseme): Viseme {
  const mid = SHAPE[a].map((x, i) => (x + SHAPE[b][i]!) / 2);
  let best: Viseme = b;
  let bestD = distance(SHAPE[b], mid);
  for (const v of PASSING) {
    if (v === a || v === b) continue;
    const d = distance(SHAPE[v], mid);
    if (d < bestD) [best, bestD] = [v, d];
  }
  return best;
}

/** The shape a held shape relaxes into for a moment when a new sound keeps it (two spread sounds in a row). */
const RELAXED: Record<Viseme, Viseme> = { rest: 'rest', mbp: 'etc', etc: 'e', fv: 'etc', e: 'etc', ai: 'e', o: 'u', u: 'o' };

/** Anticipation: the last part of a sound (at most this long) already moves towards the next. */
const LEAD_SECONDS = 0.06;
const LEAD_SHARE = 0.45;

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
 * A time near t with the eyes open: t itself, or when a blink is under way then, a frame before
 * that blink starts (a still of a half-closed blink makes a poor thumbnail).
 */
export function eyesOpenNear(blinks: readonly number[], t: number, frameSeconds: number): number {
  for (const b of blinks) {
    if (b > t) break;
    if (t < b + BLINK_SECONDS) return Math.max(0, b - frameSeconds);
  }
  return t;
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

/**
 * The mouth shape at time t, with co-articulation: the end of each sound already moves towards
 * the next one (through the shape between them, `betweenShape`), and a run of different sounds
 * that share a shape (a vowel after a consonant said with the same mouth) relaxes it for a
 * moment at the boundary instead of holding it, as a speaking mouth does.
 */
export function visemeAt(phonemes: readonly TimedPhoneme[], t: number): Viseme {
  const i = phonemeAt(phonemes, t);
  if (i < 0) return 'rest';
  const ph = phonemes[i]!;
  const cur = visemeOf(ph.phoneme);
  const dur = ph.end - ph.start;
  // The next sound that takes time (espeak reports some as zero-length), if it follows at once.
  let j = i + 1;
  while (j < phonemes.length && phonemes[j]!.end <= phonemes[j]!.start) j++;
  const next = phonemes[j];
  if (next && next.start - ph.end < 0.02 && t >= ph.end - Math.min(LEAD_SECONDS, dur * LEAD_SHARE)) {
    const to = visemeOf(next.phoneme);
    if (to !== cur) return betweenShape(cur, to);
  }
  const prev = i > 0 ? phonemes[i - 1] : undefined;
  if (
    prev && cur !== 'rest' && ph.start - prev.end < 0.02 && visemeOf(prev.phoneme) === cur &&
    barePhoneme(prev.phoneme) !== barePhoneme(ph.phoneme) && t < ph.start + Math.min(LEAD_SECONDS, dur * LEAD_SHARE)
  ) {
    return RELAXED[cur];
  }
  return cur;
}

/** The presenter's pose at time t (seconds). */
export function poseAt(anim: Animation, t: number): PresenterPose {
  return { viseme: visemeAt(anim.timeline.phonemes, t), blink: isBlinking(anim.blinks, t), ...idleMotion(t) };
}
