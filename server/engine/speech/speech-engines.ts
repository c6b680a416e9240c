// The speech engines behind one interface: each catalog voice names its engine, and every
// engine returns PCM at SPEECH_SAMPLE_RATE with word and phoneme timings.
// - espeak-ng: its own timings (speech.ts); the fast voice.
// - SVOX Pico: 16 kHz audio without timings; resampled and aligned to espeak's rendering.
// - Piper neural packs (speech-piper.ts): downloaded on demand, phonemized by espeak, aligned
//   the same way.
// The espeak reference is spoken on its own worker while the other engine speaks, so the
// alignment costs little more than the MFCC and warping path themselves.
import type { LexiconEntry } from '../../../shared/contract/index.js';
import { EngineError } from '../types.js';
import { alignTimeline } from './speech-align.js';
import { SPEECH_SAMPLE_RATE, SpeechSynth, WorkerSynth, type RawSpeech, type Speech } from './speech.js';
import { resample } from './resample.js';
import { espeakText } from './espeak-text.js';
import { catalogVoices, PICO_DATA_DIR, type EngineVoice, type PicoVoice } from './voices.js';
import type { PiperSpeaker } from './speech-piper.js';

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

export class SpeechEngines {
  readonly pico: WorkerSynth<PicoVoice & { dir: string }>;
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
    private readonly options: { catalogDir?: string; piper?: PiperSpeaker; warm?: boolean; whenIdle?: () => Promise<void> } = {},
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

  /** Speech for one chunk of a script in the voice's engine, at SPEECH_SAMPLE_RATE, with timings; words said as `lexicon` says. */
  async speak(text: string, voice: EngineVoice, signal?: AbortSignal, lexicon?: readonly LexiconEntry[]): Promise<Speech> {
    if (voice.engine === 'espeak') return this.espeak.synthesize(text, voice.espeak, signal, lexicon);
    if (voice.engine === 'piper' && !this.options.piper) throw new EngineError('speech_failed', 'Neural voices are not available in this studio.');
    // Pico reads the words espeak reads ("03/04/2026" as "March 4th, 2026"): the same reading in
    // every voice, and audio that matches its timing reference. A neural voice's phonemes are espeak's.
    const [reference, raw] = await Promise.all([
      this.espeak.synthesize(text, voice.espeak, signal, lexicon),
      voice.engine === 'pico'
        ? this.pico.raw(espeakText(text, voice.espeak.voice, lexicon).text, { ...voice.pico!, dir: PICO_DATA_DIR }, signal)
        : this.options.piper!.raw(text, voice, signal, lexicon),
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
