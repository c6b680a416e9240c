// The speech engines behind one interface: each catalog voice names its engine, and every
// engine returns PCM at SPEECH_SAMPLE_RATE with word and phoneme timings.
// - espeak-ng: its own timings (speech.ts); the fast voice.
// - SVOX Pico: 16 kHz audio without timings; resampled and aligned to espeak's rendering.
// - Flite's clustergen voices (flite-worker.mjs): the same way as Pico's.
// - Piper and Kokoro neural packs (speech-piper.ts, speech-kokoro.ts): downloaded on demand,
//   phonemized by espeak, aligned the same way.
// The espeak reference is spoken on its own worker while the other engine speaks, so the
// alignment costs little more than the MFCC and warping path themselves.
import type { LexiconEntry } from '../../../shared/contract/index.js';
import { EngineError } from '../types.js';
import { alignTimeline } from './speech-align.js';
import { SPEECH_SAMPLE_RATE, SpeechSynth, WorkerSynth, type RawSpeech, type Speech } from './speech.js';
import { resample } from './resample.js';
import { espeakReady } from './espeak-text.js';
import { catalogVoices, PICO_DATA_DIR, type EngineVoice, type FliteVoice, type PicoVoice } from './voices.js';
import type { PiperSpeaker } from './speech-piper.js';
import type { KokoroSpeaker } from './speech-kokoro.js';

/**
 * Speech for the warm-ups: a worker loads its engine (espeak's WebAssembly ~30 ms; Pico's module
 * and language ~0.1–0.4 s) and V8 moves its hot functions from the baseline compiler to optimised
 * code in the background (espeak, on 16 s of speech: 75 ms for the first request, 22 ms from the
 * third on). These sentences (~1 minute of speech, ~0.15 s of CPU for espeak) are enough. Varied
 * on purpose: numbers, dates, questions, abbreviations, long and short words.
 */
export const WARM_UP_TEXTS = [
  'Welcome back! Here are three quick updates for 2026, and why they matter to you and your team.',
  'Rendering is faster, captions follow the voice word by word, and your drafts stay on your own machine.',
  'Did you know that 42 percent of viewers watch without sound? Clear captions keep them watching until the end.',
  'On March 3rd, at 9:30 a.m., Dr. Rivera will present the results: a rise of 17.5 percent over last year.',
  'Short sentences help. Pauses, too. Then a longer one carries the thought through to its natural conclusion.',
  'Thank you for watching; subscribe, share this video with a friend, and we will see you next week.',
];

/** Pico's worker stays this long after its last request (loading a language takes ~0.1–0.4 s). */
const PICO_IDLE_MS = 5 * 60_000;
/** Flite's worker likewise (compiling its module, voices inside, takes a moment too). */
const FLITE_IDLE_MS = 5 * 60_000;

export class SpeechEngines {
  readonly pico: WorkerSynth<PicoVoice & { dir: string }>;
  readonly flite = new WorkerSynth<FliteVoice>(new URL('./flite-worker.mjs', import.meta.url), FLITE_IDLE_MS);
  /** The Pico voice a warm studio warms up with (null when not kept warm). */
  private readonly warmPico: EngineVoice | null;

  /**
   * `warm`: Pico's worker is started and warmed with the studio (after espeak's warm-up, with
   * the catalog's first Pico voice) and kept, as espeak's is: a new draft's voice is Pico's in
   * English, German, French, Spanish and Italian (the app picks the best voice that ships), so
   * most first renders are Pico's, which cold paid ~0.5 s more before the first frame and ~1 s
   * more CPU. It costs ~30 MB while the studio runs.
   */
  constructor(
    readonly espeak: SpeechSynth,
    private readonly options: { catalogDir?: string; piper?: PiperSpeaker; kokoro?: KokoroSpeaker; warm?: boolean; whenIdle?: () => Promise<void> } = {},
  ) {
    const first = catalogVoices(options.catalogDir).find((v) => v.engine === 'pico');
    // Starting Pico costs ~0.6 s of CPU; two sentences (~0.4 s more) get its hot code optimised,
    // where all six would add ~1 s more at the studio's start.
    const warmUp = options.warm && first
      ? { texts: WARM_UP_TEXTS.slice(0, 2), voice: { ...first.pico!, dir: PICO_DATA_DIR }, whenIdle: options.whenIdle }
      : undefined;
    this.pico = new WorkerSynth(new URL('./pico-worker.mjs', import.meta.url), options.warm ? Infinity : PICO_IDLE_MS, warmUp);
    this.warmPico = warmUp ? first! : null;
  }

  /**
   * Loads and warms espeak-ng (every engine's timing reference), then SVOX Pico when `warm`, and
   * then the alignment on this thread with one Pico sentence, so V8 has optimised the MFCC and
   * warping loops before a first Pico render's first chunk waits for them. Each waits while a
   * render runs (`whenIdle`: a render that starts with the studio, a queued job resumed, keeps
   * the cores). A warm-up cut short
   * (the studio closing, a cancel) only leaves the next render colder.
   */
  async warmUp(): Promise<void> {
    await this.espeak.warmUp();
    await this.pico.warmUp();
    if (!this.warmPico) return;
    await this.options.whenIdle?.();
    try {
      await this.speak(WARM_UP_TEXTS[0]!, this.warmPico);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
    }
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
    if (voice.engine !== 'piper' && voice.engine !== 'kokoro') return;
    const speaker = this.neural(voice);
    let onAbort = () => undefined as void;
    const canceled = new Promise<never>((_, reject) => {
      onAbort = () => reject(new EngineError('canceled', 'The render was canceled.'));
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([speaker.prepare(voice), canceled]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Speech for one chunk of a script in the voice's engine, at SPEECH_SAMPLE_RATE, with timings; words said as `lexicon` says. */
  async speak(text: string, voice: EngineVoice, signal?: AbortSignal, lexicon?: readonly LexiconEntry[]): Promise<Speech> {
    if (voice.engine === 'espeak') return this.espeak.synthesize(text, voice.espeak, signal, lexicon);
    if (voice.engine === 'piper' || voice.engine === 'kokoro') this.neural(voice);
    // Pico and Flite read the words espeak reads ("03/04/2026" as "March 4th, 2026"): the same
    // reading in every voice, and audio that matches its timing reference. A neural voice's
    // phonemes are espeak's.
    const [reference, raw] = await Promise.all([this.espeak.synthesize(text, voice.espeak, signal, lexicon), this.raw(text, voice, signal, lexicon)]);
    return aligned(reference, raw);
  }

  /** The engine's own audio for a voice that is not espeak's. */
  private async raw(text: string, voice: EngineVoice, signal?: AbortSignal, lexicon?: readonly LexiconEntry[]): Promise<RawSpeech> {
    const read = async () => (await espeakReady(text, voice.espeak.voice, lexicon)).text;
    if (voice.engine === 'pico') return this.pico.raw(await read(), { ...voice.pico!, dir: PICO_DATA_DIR }, signal);
    if (voice.engine === 'flite') return this.flite.raw(await read(), voice.flite!, signal);
    return this.neural(voice).raw(text, voice, signal, lexicon);
  }

  /** The speaker of a neural voice's engine, or a `speech_failed` error when this studio has none. */
  private neural(voice: EngineVoice): PiperSpeaker | KokoroSpeaker {
    const speaker = voice.engine === 'kokoro' ? this.options.kokoro : this.options.piper;
    if (!speaker) throw new EngineError('speech_failed', 'Neural voices are not available in this studio.');
    return speaker;
  }

  async close(): Promise<void> {
    await Promise.all([this.espeak.close(), this.pico.close(), this.flite.close(), this.options.piper?.close(), this.options.kokoro?.close()]);
  }
}

/** The engine's audio at the narration's rate, timed by aligning it to espeak's rendering. */
export function aligned(reference: Speech, raw: RawSpeech): Speech {
  const samples = resample(raw.samples, raw.sampleRate, SPEECH_SAMPLE_RATE);
  const target = { samples, sampleRate: SPEECH_SAMPLE_RATE };
  return { ...target, timeline: alignTimeline(reference, target) };
}
