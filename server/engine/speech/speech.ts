// Speech: a synthesiser compiled to WebAssembly in a worker thread (espeak-ng here, SVOX Pico in
// speech-pico.ts) → 16-bit PCM plus espeak's word and phoneme timings.
// One worker per synthesiser, requests served in order; a cancel terminates the worker (neither
// engine can be interrupted mid-call) and the next request starts a fresh one.
import { Worker } from 'node:worker_threads';
import { isCaptionWord, withPageEnds, type SpeechTimeline, type TimedPhoneme, type TimedWord } from '../../../shared/scene/index.js';
import type { LexiconEntry } from '../../../shared/contract/index.js';
import { EngineError } from '../types.js';
import type { EspeakVoice } from './voices.js';
import { espeakReady } from './espeak-text.js';

/** espeak-ng's output rate (ffmpeg is started with it before the first words are spoken). */
export const SPEECH_SAMPLE_RATE = 22050;

export interface Speech {
  samples: Int16Array;
  sampleRate: number;
  timeline: SpeechTimeline;
}

export interface EspeakEvent {
  type: 'word' | 'sentence' | 'phoneme' | 'end' | 'mark' | 'msg_terminated' | 'list_terminated';
  text_position: number;
  word_length: number;
  audio_position: number;
  id?: string | number;
}

/** A worker's answer: audio (+ espeak's events), or espeak's phonemes (IPA), or an error. */
export type RawSpeech = { samples: Int16Array; sampleRate: number; events: EspeakEvent[] };
type Reply = ({ id: number } & RawSpeech) | { id: number; ipa: string } | { id: number; error: string };

/** The worker thread exited while a request was out. */
class SpeechWorkerLost extends EngineError {
  constructor() {
    super('speech_failed', 'The speech synthesiser stopped unexpectedly.');
  }
}

/** Requests a worker understands: `op` absent = synthesise. */
interface Request {
  text: string;
  voice: unknown;
  op?: 'ipa';
}

/** Emoji, code point by code point (a sequence's joiners, modifiers and variation selectors too). */
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}(?=\uFE0F)|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200D|\uFE0F|\u20E3/gu;

/**
 * The text as a voice is given it: emoji blanked (captions show them; espeak read their names
 * out, "party popper"), one space per code point, so text positions still match the script.
 */
export function voicedText(text: string): string {
  return text.replace(EMOJI, ' ');
}

/** What a synthesiser warms up with: texts in a voice, spoken while `whenIdle` says no render runs. */
export interface WarmUpWith<V> {
  texts: string[];
  voice: V;
  /** Resolves once no render runs (a render that starts with the studio keeps the cores). */
  whenIdle?: () => Promise<void>;
}

/** A synthesiser in a worker thread (`workerUrl`), with voice settings of type V. */
export class WorkerSynth<V> {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, { resolve(r: Reply): void; reject(e: Error): void }>();
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | null = null;

  private warming: Promise<number> | null = null;
  /** The worker that has been through a warm-up (or as many requests); null once it is gone. */
  private warmed: Worker | null = null;
  /** Requests from callers (not the warm-up), queued or running: the warm-up gives way to them. */
  private waiting = 0;
  private closed = false;

  /**
   * The worker stops once idle for idleMs (0: at once; Infinity: never), which frees its heap.
   * For espeak, a cold worker costs a one-minute render ~0.1 s before its first words and ~0.1 s
   * of CPU (loading the WebAssembly module and its data, optimising its hot functions); warmUp()
   * pays that ahead of time, in the background.
   */
  constructor(
    private readonly workerUrl: URL,
    private readonly idleMs = 0,
    private readonly warmUpWith?: WarmUpWith<V>,
  ) {}

  /**
   * Starts the worker and speaks the warm-up texts one by one, so later requests find the
   * synthesiser loaded and compiled. It stops early when a caller's request comes in (that request then
   * waits for one warm-up text at most), and waits while a render of another engine runs
   * (`whenIdle`). Resolves with the number of texts spoken.
   */
  warmUp(): Promise<number> {
    const w = this.warmUpWith;
    if (!w || this.closed || (this.worker && this.worker === this.warmed)) return this.warming ?? Promise.resolve(0);
    this.warming ??= (async () => {
      let spoken = 0;
      for (const text of w.texts) {
        await w.whenIdle?.();
        if (this.closed || this.waiting > 0) break;
        const ok = await this.enqueue({ text, voice: w.voice }, undefined).then(() => true, () => false);
        if (!ok) break; // a failed warm-up only means the next request starts cold
        spoken++;
      }
      this.warmed = this.worker;
      return spoken;
    })().finally(() => (this.warming = null));
    return this.warming;
  }

  private ensureWorker(): Worker {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.worker) return this.worker;
    const w = new Worker(this.workerUrl);
    w.on('message', (r: Reply) => {
      const p = this.pending.get(r.id);
      this.pending.delete(r.id);
      p?.resolve(r);
    });
    // Only a crash of the current worker fails what is pending; a worker retired on purpose
    // (idle, or canceled) has nothing pending of its own any more.
    const fail = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = null;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    w.on('error', fail);
    w.on('exit', () => fail(new SpeechWorkerLost()));
    w.unref();
    this.worker = w;
    return w;
  }

  /** Synthesises text to raw audio; rejects with EngineError('canceled') when the signal fires first. */
  raw(text: string, voice: V, signal?: AbortSignal): Promise<RawSpeech> {
    return this.request({ text, voice }, signal).then((r) => {
      if (!('samples' in r)) throw new EngineError('speech_failed', 'The speech synthesiser gave no audio.');
      if (r.samples.length === 0) throw new EngineError('speech_failed', 'Speech synthesis produced no audio for this script.');
      return r;
    });
  }

  /** A caller's request (the warm-up gives way to it). */
  protected request(req: Request, signal?: AbortSignal): Promise<Reply> {
    this.waiting++;
    const p = this.enqueue({ ...req, text: voicedText(req.text) }, signal);
    // The caller gets p (and its failure); this chain only counts it down.
    void p.finally(() => this.waiting--).catch(() => undefined);
    return p;
  }

  private enqueue(req: Request, signal: AbortSignal | undefined): Promise<Reply> {
    const run = async (): Promise<Reply> => {
      if (signal?.aborted) throw new EngineError('canceled', 'The render was canceled.');
      if (this.closed) throw new EngineError('canceled', 'The speech synthesiser was shut down.');
      const w = this.ensureWorker();
      const id = this.nextId++;
      let onAbort: (() => void) | null = null;
      const reply = await new Promise<Reply>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        onAbort = () => {
          if (!this.pending.delete(id)) return; // already answered
          if (this.worker === w) this.worker = null;
          void w.terminate(); // espeak cannot be interrupted mid-call
          reject(new EngineError('canceled', 'The render was canceled.'));
          setImmediate(() => void this.warmUp()); // the next render should not pay for the cancel
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        w.ref(); // keep the process alive while a request is out; unref'd again when idle
        w.postMessage({ id, ...req });
      }).finally(() => {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        if (this.pending.size === 0) {
          w.unref();
          if (Number.isFinite(this.idleMs)) {
            this.idleTimer = setTimeout(() => {
              if (this.worker === w && this.pending.size === 0) {
                this.worker = null;
                void w.terminate();
              }
            }, this.idleMs);
            this.idleTimer.unref();
          }
        }
      });
      if ('error' in reply) throw new EngineError('speech_failed', `Speech synthesis failed: ${reply.error}`);
      return reply;
    };
    // A worker thread that dies under us (seen once on a heavily loaded machine) is replaced
    // and the request sent again, once: the render should not fail for it.
    const runOnceMore = () => run().catch((err: unknown) => {
      if (err instanceof SpeechWorkerLost && !signal?.aborted) return run();
      throw err;
    });
    const p = this.queue.then(runOnceMore, runOnceMore);
    // The queue keeps the order only: a failed request is reported to its own caller through p.
    this.queue = p.catch(() => undefined);
    return p;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = null;
    const closed = new EngineError('canceled', 'The speech synthesiser was shut down.');
    for (const p of this.pending.values()) p.reject(closed);
    this.pending.clear();
    if (w) await w.terminate();
  }
}

/** espeak-ng: audio with its own word and phoneme timings; also the phonemizer of neural voices. */
export class SpeechSynth extends WorkerSynth<EspeakVoice> {
  constructor(idleMs = 0, warmUpWith?: WarmUpWith<EspeakVoice>) {
    super(new URL('./speech-worker.mjs', import.meta.url), idleMs, warmUpWith);
  }

  /** Synthesises text (said as `lexicon` says); rejects with EngineError('canceled') when the signal fires first. */
  async synthesize(text: string, voice: EspeakVoice, signal?: AbortSignal, lexicon?: readonly LexiconEntry[]): Promise<Speech> {
    const given = await espeakReady(text, voice.voice, lexicon);
    const r = await this.raw(given.text, voice, signal);
    const events = given.text === text ? r.events : r.events.map((e) => ({ ...e, text_position: given.scriptPosition(e.text_position) }));
    return { samples: r.samples, sampleRate: r.sampleRate, timeline: buildTimeline(text, events, r.samples.length / r.sampleRate) };
  }

  /** espeak's phonemes of the text in IPA, one clause per line. */
  async ipa(text: string, voice: EspeakVoice, signal?: AbortSignal, lexicon?: readonly LexiconEntry[]): Promise<string> {
    const r = await this.request({ text: (await espeakReady(text, voice.voice, lexicon)).text, voice, op: 'ipa' }, signal);
    if (!('ipa' in r)) throw new EngineError('speech_failed', 'The phonemizer gave no phonemes.');
    return r.ipa;
  }
}

/** Word and phoneme spans (seconds) from espeak's events; times only grow and stay inside the audio. */
export function buildTimeline(text: string, events: EspeakEvent[], durationSeconds: number): SpeechTimeline {
  const chars = Array.from(text); // espeak counts text positions in characters, from 1
  // The script's own tokens (with their punctuation): captions show every one of them.
  const tokens: { start: number; text: string }[] = [];
  for (let i = 0; i < chars.length; ) {
    if (/\s/u.test(chars[i]!)) {
      i++;
      continue;
    }
    const start = i;
    while (i < chars.length && !/\s/u.test(chars[i]!)) i++;
    tokens.push({ start, text: chars.slice(start, i).join('') });
  }
  const tokenAt = (pos: number) => {
    let k = 0;
    while (k + 1 < tokens.length && tokens[k + 1]!.start <= pos) k++;
    return k;
  };
  const clamp = (s: number) => Math.min(durationSeconds, Math.max(0, s));
  const marks = events.filter((e) => e.type === 'word' || e.type === 'phoneme' || e.type === 'end' || e.type === 'sentence');
  const phonemes: TimedPhoneme[] = [];
  const spoken: (TimedWord & { token: number })[] = [];
  let current: TimedWord | null = null;
  let sounded = false; // whether the current word has had a sounding phoneme yet
  for (let i = 0; i < marks.length; i++) {
    const e = marks[i]!;
    const t = clamp(e.audio_position / 1000);
    if (e.type === 'word') {
      if (!tokens.length) continue;
      // espeak may split one token (a number, a hyphenated word) into several words, which then
      // merge back into one caption word.
      let token = tokenAt(Math.max(0, e.text_position - 1));
      const last = spoken[spoken.length - 1];
      // espeak reports a sign it reads out before a word ("=" in "x = y") at that word's position,
      // followed by the word's own event there: the first of the two is the sign's.
      const nextWord = marks.slice(i + 1).find((m) => m.type === 'word');
      const before = tokens[token - 1];
      if (nextWord?.text_position === e.text_position && before && token - 1 > (last?.token ?? -1) && !/[\p{L}\p{N}]/u.test(before.text) && isCaptionWord(before.text)) token--;
      if (last && token <= last.token) {
        current = last; // same token again: its sound extends the same caption word
        continue;
      }
      const word = { text: tokens[token]!.text, start: t, end: t, token };
      spoken.push(word);
      current = word;
      sounded = false;
    } else if (e.type === 'phoneme') {
      const next = marks.slice(i + 1).find((m) => m.type === 'phoneme' || m.type === 'word' || m.type === 'end');
      const end = clamp(next ? next.audio_position / 1000 : durationSeconds);
      const phoneme = String(e.id ?? '');
      phonemes.push({ phoneme, start: t, end: Math.max(t, end) });
      if (phoneme && current) {
        current.end = Math.max(current.end, end);
        sounded = true;
      } else if (current && !sounded) {
        // A sign read out by name ("&" as "and") may start with a pause: the word starts after it.
        current.start = current.end = Math.max(current.start, end);
      } else current = null; // a pause ends the word
    }
  }
  // Monotonic: a word never starts before the previous one.
  for (let i = 1; i < spoken.length; i++) {
    const prev = spoken[i - 1]!;
    const w = spoken[i]!;
    if (w.start < prev.start) w.start = prev.start;
    if (w.end < w.start) w.end = w.start;
  }
  // espeak says some short words in one breath with a neighbour and reports one word event for
  // both ("of the"): tokens without an event share the span of the spoken word before them (the
  // first word's span takes any tokens before it), split by their length.
  const words: TimedWord[] = [];
  spoken.forEach((w, i) => {
    const from = i === 0 ? 0 : w.token;
    const to = i + 1 < spoken.length ? spoken[i + 1]!.token : tokens.length;
    const group = tokens.slice(from, to);
    // Weighted by letters and digits, a sign read out ("&", "=") as one: a lone dash or ellipsis
    // takes no time (and is not shown).
    const weight = (tk: { text: string }) => tk.text.replace(/[^\p{L}\p{N}]/gu, '').length || (isCaptionWord(tk.text) ? 1 : 0);
    const total = group.reduce((n, tk) => n + weight(tk), 0) || 1;
    let at = w.start;
    let used = 0;
    for (const tk of group) {
      used += weight(tk);
      const end = w.start + ((w.end - w.start) * used) / total;
      words.push({ text: tk.text, start: at, end });
      at = end;
    }
  });
  return { durationSeconds, words: withPageEnds(words), phonemes };
}
