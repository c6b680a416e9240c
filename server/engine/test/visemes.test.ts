// The viseme track a viewer sees: a mouth that keeps moving while the presenter speaks, that
// moves towards the next sound before it starts (co-articulation) and never holds one shape
// through a run of different sounds. Real espeak phonemes, a script none of the code was tuned on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barePhoneme, visemeAt, visemeOf, VISEMES, type SpeechTimeline, type TimedPhoneme } from '../../../shared/scene/index.js';
import { SpeechSynth } from '../speech/speech.js';
import { espeakVoice } from '../speech/voices.js';

const SCRIPT =
  'Our quarterly numbers came in ahead of plan. Revenue grew eleven percent, and the new studio opened on time in Lisbon. ' +
  'Thanks to everyone who stayed late to make it happen; next month we will share the roadmap with all of you.';
const FPS = 30;
const bare = barePhoneme;

let timeline: SpeechTimeline;
const synth = new SpeechSynth();
beforeAll(async () => {
  timeline = (await synth.synthesize(SCRIPT, espeakVoice('en-GB-Ryan') ?? espeakVoice('en-US-Ava')!)).timeline;
});
afterAll(() => synth.close());

/** The mouth shape of every video frame while the presenter speaks (first word to last). */
function speakingFrames(): string[] {
  const from = timeline.words[0]!.start;
  const to = timeline.words.at(-1)!.end;
  const out: string[] = [];
  for (let f = Math.ceil(from * FPS); f / FPS <= to; f++) out.push(visemeAt(timeline.phonemes, f / FPS));
  return out;
}

describe('the mouth while speaking', () => {
  it('has at least the seven shapes of before, and every one is used', () => {
    expect(VISEMES.length).toBeGreaterThanOrEqual(7);
    const used = new Set(speakingFrames());
    for (const v of VISEMES.filter((x) => x !== 'rest')) expect(used, v).toContain(v);
  });

  it('changes shape in at least 45 % of consecutive frame pairs (one shape per phoneme alone: ~30 %)', () => {
    const frames = speakingFrames();
    let changes = 0;
    for (let i = 1; i < frames.length; i++) if (frames[i] !== frames[i - 1]) changes++;
    const share = changes / (frames.length - 1);
    console.log(`mouth changes in ${(share * 100).toFixed(1)} % of frame pairs while speaking (${frames.length} frames)`);
    expect(share).toBeGreaterThan(0.45);
  });

  /** Adjacent sounds (the second right after the first) that `keep` selects. */
  const soundPairs = (keep: (a: TimedPhoneme, b: TimedPhoneme) => boolean) =>
    timeline.phonemes.slice(1).map((b, i) => [timeline.phonemes[i]!, b] as const).filter(([a, b]) => b.start - a.end <= 0.001 && keep(a, b));

  it('moves towards the next sound before it starts', () => {
    // A sound of three frames or more followed at once by one with another shape: its last frame has left it.
    const pairs = soundPairs((a, b) => a.end - a.start >= 3 / FPS && b.end > b.start && visemeOf(a.phoneme) !== visemeOf(b.phoneme));
    for (const [a, b] of pairs) expect(visemeAt(timeline.phonemes, a.end - 0.5 / FPS), `${a.phoneme} → ${b.phoneme}`).not.toBe(visemeOf(a.phoneme));
    expect(pairs.length).toBeGreaterThan(10);
  });

  it('never holds one shape through two different sounds in a row', () => {
    // Both long enough to show apart at 30 fps.
    const pairs = soundPairs((a, b) => !!bare(a.phoneme) && !!bare(b.phoneme) && bare(a.phoneme) !== bare(b.phoneme) && a.end - a.start >= 2 / FPS && b.end - b.start >= 2 / FPS);
    for (const [a, b] of pairs) {
      const shapes = new Set<string>();
      for (let t = a.start; t < b.end; t += 1 / FPS) shapes.add(visemeAt(timeline.phonemes, t));
      expect(shapes.size, `${a.phoneme} ${b.phoneme}`).toBeGreaterThan(1);
    }
    expect(pairs.length).toBeGreaterThan(20);
  });
});
