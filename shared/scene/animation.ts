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
const BILABIAL_LEAD_SHARE = 0.2;

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

/** A blink: the lids close over CLOSE seconds, stay shut for HOLD, open over OPEN. */
const BLINK_CLOSE = 0.04;
const BLINK_HOLD = 0.07;
const BLINK_OPEN = 0.07;
const BLINK_SECONDS = BLINK_CLOSE + BLINK_HOLD + BLINK_OPEN;

/** A seeded generator (the same numbers everywhere, so preview and video agree). */
function seeded(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
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
 * Blink start times: the first after 1.4–2.4 s, then 1.8–6.6 s apart (people at rest blink
 * about 8–25 times a minute, unevenly), one in eight followed at once by a second.
 */
export function blinkTimes(durationSeconds: number): number[] {
  const out: number[] = [];
  const rand = seeded(0x2f6b1);
  for (let t = 1.4 + rand(); t < durationSeconds; t += 1.8 + rand() * rand() * 4.8 + rand() * 1.2) {
    out.push(t);
    if (rand() < 0.125) out.push((t += BLINK_SECONDS + 0.12));
  }
  return out;
}

/** Eyelid closure at time t (0 open, 1 shut). */
export function lidAt(blinks: readonly number[], t: number): number {
  for (const b of blinks) {
    if (b > t) return 0;
    const d = t - b;
    if (d >= BLINK_SECONDS) continue;
    if (d < BLINK_CLOSE) return d / BLINK_CLOSE;
    if (d < BLINK_CLOSE + BLINK_HOLD) return 1;
    return 1 - (d - BLINK_CLOSE - BLINK_HOLD) / BLINK_OPEN;
  }
  return 0;
}

/** How far head motion reaches from rest, in pose units (1/480 of the rig's height): every rig's motion margin. */
export const MOTION_REACH = 7;

/**
 * Idle motion at time t: zero at t = 0 so the first frame is the rest pose. A slow sway and a
 * drift up and down, two periods each, so it never looks like a loop.
 */
export function idleMotion(t: number): Pick<PresenterPose, 'headDx' | 'headDy' | 'headRoll'> {
  const TAU = Math.PI * 2;
  return {
    headDx: 2.2 * Math.sin((TAU * t) / 4.3) + 0.8 * Math.sin((TAU * t) / 2.3),
    headDy: 1.2 * (1 - Math.cos((TAU * t) / 3.1)),
    headRoll: 0.018 * Math.sin((TAU * t) / 5.3) + 0.006 * Math.sin((TAU * t) / 1.9),
  };
}

/** Where the head nods (stressed words) and settles (sentence ends), found as words arrive. */
interface MotionCues {
  /** Words looked at so far. */
  seen: number;
  nods: number[];
  settles: number[];
}

/** A nod lasts this long: down, then back up. */
const NOD_SECONDS = 0.42;
const NOD_DEPTH = 2.6;
/** At most one nod in this long: nodding on every stressed word looks like a tic. */
const NOD_SPACING = 1.1;
const SETTLE_SECONDS = 0.9;
const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/;

/** The words' cues so far: a nod at a stressed word's onset (a primary stress, long enough), a settle at a sentence's last word. */
function updateCues(cues: MotionCues, timeline: SpeechTimeline): void {
  const { words, phonemes } = timeline;
  for (; cues.seen < words.length; cues.seen++) {
    const w = words[cues.seen]!;
    if (SENTENCE_END.test(w.text) || w.pageEnd) cues.settles.push(w.end);
    const last = cues.nods[cues.nods.length - 1] ?? -Infinity;
    if (w.end - w.start < 0.22 || w.start - last < NOD_SPACING) continue;
    const i = phonemeAt(phonemes, w.start + 0.001);
    for (let j = Math.max(0, i); j < phonemes.length && phonemes[j]!.start < w.end; j++) {
      if (phonemes[j]!.phoneme.includes('ˈ')) {
        cues.nods.push(Math.max(w.start, phonemes[j]!.start - 0.05));
        break;
      }
    }
  }
}

/** A smooth bump over [0, 1] (0 at both ends, 1 in the middle), 0 outside. */
const bump = (x: number) => (x <= 0 || x >= 1 ? 0 : Math.sin(Math.PI * x) ** 2);

/** The latest cue at or before t (cues are sorted), or -Infinity. */
function lastCue(cues: readonly number[], t: number): number {
  let lo = 0;
  let hi = cues.length - 1;
  let best = -Infinity;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cues[mid]! <= t) [best, lo] = [cues[mid]!, mid + 1];
    else hi = mid - 1;
  }
  return best;
}

/** Head motion at t: idle sway, a nod after each nod cue, eased back towards rest after a sentence's end. */
export function headMotion(cues: MotionCues, t: number): Pick<PresenterPose, 'headDx' | 'headDy' | 'headRoll'> {
  const idle = idleMotion(t);
  const nod = bump((t - lastCue(cues.nods, t)) / NOD_SECONDS);
  const settle = bump((t - lastCue(cues.settles, t)) / SETTLE_SECONDS);
  const calm = 1 - 0.6 * settle;
  const clamp = (v: number) => Math.max(-MOTION_REACH, Math.min(MOTION_REACH, v));
  return {
    headDx: clamp(idle.headDx * calm),
    headDy: clamp(idle.headDy * calm + NOD_DEPTH * nod + 0.8 * settle),
    headRoll: idle.headRoll * calm + 0.02 * nod,
  };
}

/** Precomputed animation of one narration (its timeline may still grow: cues follow it). */
export interface Animation {
  timeline: SpeechTimeline;
  blinks: number[];
  cues: MotionCues;
}

export function createAnimation(timeline: SpeechTimeline): Animation {
  return { timeline, blinks: blinkTimes(timeline.durationSeconds + 1), cues: { seen: 0, nods: [], settles: [] } };
}

/** Loudness is averaged over this long around an instant: a frame's worth of sound. */
const LOUDNESS_WINDOW = 1 / 30;

/** The loudness (0–1) around t, or null without a loudness track. */
export function loudnessAt(timeline: SpeechTimeline, t: number): number | null {
  const track = timeline.loudness;
  if (!track) return null;
  const i0 = Math.max(0, Math.floor((t - LOUDNESS_WINDOW / 2) * track.rate));
  const i1 = Math.max(i0 + 1, Math.ceil((t + LOUDNESS_WINDOW / 2) * track.rate));
  let sum = 0;
  for (let i = i0; i < i1; i++) sum += track.values[i] ?? 0;
  return sum / (i1 - i0);
}

/** A quieter shape of each open vowel's: a soft syllable opens the mouth less. */
const QUIETER: Partial<Record<Viseme, Viseme>> = { ai: 'e', o: 'u', e: 'etc' };
/** Below this loudness an open shape gives way to its quieter one. */
const QUIET = 0.6;

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
  // Lips close for every p, b and m: they hold through its middle, and only its last fifth moves on.
  const lead = Math.min(LEAD_SECONDS, dur * (cur === 'mbp' ? BILABIAL_LEAD_SHARE : LEAD_SHARE));
  if (next && next.start - ph.end < 0.02 && t >= ph.end - lead) {
    const to = visemeOf(next.phoneme);
    if (to !== cur) return betweenShape(cur, to);
  }
  const prev = i > 0 ? phonemes[i - 1] : undefined;
  if (
    prev && cur !== 'rest' && cur !== 'mbp' && ph.start - prev.end < 0.02 && visemeOf(prev.phoneme) === cur &&
    barePhoneme(prev.phoneme) !== barePhoneme(ph.phoneme) && t < ph.start + Math.min(LEAD_SECONDS, dur * LEAD_SHARE)
  ) {
    return RELAXED[cur];
  }
  return cur;
}

/**
 * The presenter's pose at time t (seconds): the mouth from the phonemes, opened as far as the
 * voice is loud (a quiet vowel takes its quieter shape), blinks, and the head's motion.
 */
export function poseAt(anim: Animation, t: number): PresenterPose {
  updateCues(anim.cues, anim.timeline);
  let viseme = visemeAt(anim.timeline.phonemes, t);
  const loud = loudnessAt(anim.timeline, t);
  let open = SHAPE[viseme][0];
  if (loud !== null) {
    if (loud < QUIET) viseme = QUIETER[viseme] ?? viseme;
    open = SHAPE[viseme][0] * Math.min(1, 0.2 + loud);
  }
  return { viseme, open, lid: lidAt(anim.blinks, t), ...headMotion(anim.cues, t) };
}
