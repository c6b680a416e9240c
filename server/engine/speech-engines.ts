// The speech engines behind one interface: each catalog voice names its engine, and every
// engine returns PCM at SPEECH_SAMPLE_RATE with word and phoneme timings.
// - espeak-ng: its own timings (speech.ts); the fast voice.
// - SVOX Pico: 16 kHz audio without timings; resampled and aligned to espeak's rendering.
// - Piper neural packs (speech-piper.ts): downloaded on demand, phonemized by espeak, aligned
//   the same way.
// The espeak reference is spoken on its own worker while the other engine speaks, so the
// alignment costs little more than the MFCC and warping path themselves.
import { EngineError } from './types.js';
import { alignTimeline } from './speech-align.js';
import { SPEECH_SAMPLE_RATE, SpeechSynth, WorkerSynth, type RawSpeech, type Speech } from './speech.js';
import { resample } from './resample.js';
import { catalogVoices, PICO_DATA_DIR, type EngineVoice, type PicoVoice } from './voices.js';
import type { PiperSpeaker } from './speech-piper.js';

/** Pico's worker stays this long after its last request (loading a language takes ~0.1–0.4 s). */
const PICO_IDLE_MS = 5 * 60_000;

export class SpeechEngines {
  readonly pico: WorkerSynth<PicoVoice & { dir: string }>;

  /**
   * `warm`: Pico's worker, once started by its first voice, is kept (and warmed again after a
   * cancel), as espeak's is. It is not started with the studio: its first render pays its load
   * (~0.4 s of CPU), a studio that never speaks Pico (most other languages, API clients that name
   * espeak voices) stays ~60 MB smaller, and an espeak render right after start keeps both cores.
   */
  constructor(
    readonly espeak: SpeechSynth,
    private readonly options: { catalogDir?: string; piper?: PiperSpeaker; warm?: boolean } = {},
  ) {
    const first = catalogVoices(options.catalogDir).find((v) => v.engine === 'pico');
    const warmUp = options.warm && first ? { texts: [`Hi, I'm ${first.name}.`], voice: { ...first.pico!, dir: PICO_DATA_DIR } } : undefined;
    this.pico = new WorkerSynth(new URL('./pico-worker.mjs', import.meta.url), options.warm ? Infinity : PICO_IDLE_MS, warmUp);
  }

  /** Loads and warms espeak-ng, the synthesiser most renders use (and every engine's timing reference). */
  async warmUp(): Promise<void> {
    await this.espeak.warmUp();
  }

  /** A catalog voice by either id form, or an `invalid_input` error. */
  voice(voiceId: string): EngineVoice {
    const v = catalogVoices(this.options.catalogDir).find((x) => x.id === voiceId || x.numericId === voiceId);
    if (!v) throw new EngineError('invalid_input', `Unknown voice "${voiceId}".`);
    return v;
  }

  /**
   * Gets a voice ready before a render starts timing its speech: a neural voice's pack is
   * downloaded (when missing, with its own stall check: a large pack may take minutes) and loaded.
   */
  async prepare(voice: EngineVoice, signal: AbortSignal): Promise<void> {
    if (voice.engine !== 'piper') return;
    if (!this.options.piper) throw new EngineError('speech_failed', 'Neural voices are not available in this studio.');
    let onAbort = () => undefined as void;
    const canceled = new Promise<never>((_, reject) => {
      onAbort = () => reject(new EngineError('canceled', 'The render was canceled.'));
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.options.piper.prepare(voice), canceled]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Speech for one chunk of a script in the voice's engine, at SPEECH_SAMPLE_RATE, with timings. */
  async speak(text: string, voice: EngineVoice, signal?: AbortSignal): Promise<Speech> {
    if (voice.engine === 'espeak') return this.espeak.synthesize(text, voice.espeak, signal);
    if (voice.engine === 'piper' && !this.options.piper) throw new EngineError('speech_failed', 'Neural voices are not available in this studio.');
    const [reference, raw] = await Promise.all([
      this.espeak.synthesize(text, voice.espeak, signal),
      voice.engine === 'pico' ? this.pico.raw(text, { ...voice.pico!, dir: PICO_DATA_DIR }, signal) : this.options.piper!.raw(text, voice, signal),
    ]);
    return aligned(reference, raw);
  }

  async close(): Promise<void> {
    await Promise.all([this.espeak.close(), this.pico.close(), this.options.piper?.close()]);
  }
}

/** The engine's audio at the narration's rate, timed by aligning it to espeak's rendering. */
export function aligned(reference: Speech, raw: RawSpeech): Speech {
  const samples = resample(raw.samples, raw.sampleRate, SPEECH_SAMPLE_RATE);
  const target = { samples, sampleRate: SPEECH_SAMPLE_RATE };
  return { ...target, timeline: alignTimeline(reference, target) };
}
