// A warm studio rehearses a render once at its start: a sentence levelled and a few seconds of
// its frames composed as a render composes them, with no encoder. V8 then has the compositor's
// pixel loops, the caption drawing and the levelling optimised before the first render, whose
// first frame went out ~0.1 s later without it (x264 idle meanwhile) and which compiled a third
// more functions. Costs ~0.1 s of the main thread at the start, in slices between which the
// event loop turns; like the speech warm-ups it waits while a render runs (`whenIdle`).
import { createAnimation, fillParams } from '../../shared/scene/index.js';
import { Leveler } from './speech/loudness.js';
import { composedSource, FramePool, prepareScene } from './frames/scene-frames.js';
import { WARM_UP_TEXTS, type SpeechEngines } from './speech/speech-engines.js';
import { EngineError } from './types.js';
import { OUTPUT_FPS } from '../../shared/contract/index.js';

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
    new Leveler().level(sp.samples, sp.sampleRate);
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
