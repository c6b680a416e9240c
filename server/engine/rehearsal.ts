// A warm studio rehearses a render once at its start: a sentence levelled, mixed with music (a
// chord from memory: no file, no decoder) and a few seconds of its frames composed as a render
// does it, with no encoder. V8 then has the compositor's pixel loops, the caption drawing, the
// levelling and the music's mixing loops optimised before the first render, so its first frame
// goes out sooner (x264 would wait meanwhile) and its mix does not run unoptimised. It runs in
// slices between which the event loop turns; like the speech warm-ups it waits while a render
// runs (`whenIdle`).
import { createAnimation, fillParams } from '../../shared/scene/index.js';
import { Leveler } from './speech/loudness.js';
import { MusicMix } from './mix/music-mix.js';
import { MemoryPass, MIX_SAMPLE_RATE, MusicSource } from './mix/music-source.js';
import { composedSource, FramePool, prepareScene } from './frames/scene-frames.js';
import { WARM_UP_TEXTS, type SpeechEngines } from './speech/speech-engines.js';
import { EngineError } from './types.js';
import { OUTPUT_FPS } from '../../shared/contract/index.js';

/** The rehearsal's music: a chord, looped under the sentence (seconds). */
const MUSIC_SECONDS = 1.5;
/**
 * The sentence goes to the mix in this many pieces: each of the mix's loop functions is then
 * entered often enough for V8 to optimise it whole, with type feedback at its entry. Entered only
 * a few times, a loop was optimised on the stack alone, its whole-function code then deoptimised
 * at its first line (no feedback there), and the render's mix ran it unoptimised again.
 */
const MIX_PIECES = 8;
const MIX_ROUNDS = 3;

async function rehearseMix(narration: Int16Array): Promise<void> {
  const frames = Math.round(MUSIC_SECONDS * MIX_SAMPLE_RATE);
  const chord = new Int16Array(frames * 2);
  for (let f = 0; f < frames; f++) {
    const t = f / MIX_SAMPLE_RATE;
    chord[2 * f] = 3000 * (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 277 * t));
    chord[2 * f + 1] = 3000 * (Math.sin(2 * Math.PI * 330 * t) + Math.sin(2 * Math.PI * 440 * t));
  }
  const mix = new MusicMix({ volume: 0.3, duck: true }, () => Promise.resolve(new MusicSource(() => new MemoryPass(chord), MUSIC_SECONDS)));
  try {
    await mix.prepare();
    const piece = Math.ceil(narration.length / MIX_PIECES);
    for (let at = 0; at < narration.length; at += piece) {
      mix.push(narration.subarray(at, at + piece));
      await mix.mix(false);
    }
    mix.push(narration.length >> 1);
    await mix.mix(true);
  } finally {
    mix.close();
  }
}

/** The rehearsal's frame size (16:9). */
const REHEARSAL_SIZE = { width: 320, height: 180 };
/** Frames composed between two turns of the event loop. */
const SLICE = 8;

/**
 * Rehearses with an espeak voice and a template, pausing at every slice until `whenIdle`
 * resolves; ends early once `closed()`. Speech that fails or a synthesiser shut down (an
 * EngineError) only leaves the first render colder.
 */
export async function rehearseRender(speech: SpeechEngines, whenIdle: () => Promise<void>, closed: () => boolean): Promise<void> {
  try {
    const voice = speech.voice('en-US-Ava');
    const sp = await speech.speak(WARM_UP_TEXTS[1]!, voice);
    await whenIdle();
    if (closed()) return;
    const levelled = new Leveler().level(sp.samples, sp.sampleRate);
    // Mixed three times: V8 optimises a function once it has run enough, and a render's mix runs in pieces.
    for (let round = 0; round < MIX_ROUNDS; round++) {
      await rehearseMix(levelled);
      await whenIdle();
      if (closed()) return;
    }
    const templateId = 'newsroom';
    // Small frames: the same code runs (V8's feedback is about types, not sizes) in a tenth of the memory.
    const scene = await prepareScene(templateId, { params: fillParams(templateId, {}), shortSide: 720 }, sp.timeline.words, REHEARSAL_SIZE);
    const anim = createAnimation(sp.timeline);
    const source = composedSource(scene, anim, new FramePool());
    source.prime();
    const frames = Math.ceil(sp.timeline.durationSeconds * OUTPUT_FPS);
    for (let f = 0; f < frames; f++) {
      if (f % SLICE === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        await whenIdle();
        if (closed()) return;
      }
      source.frame(f / OUTPUT_FPS);
      if (f === OUTPUT_FPS) source.artDone();
    }
  } catch (err) {
    if (!(err instanceof EngineError)) throw err;
  }
}
