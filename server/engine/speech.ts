// Speech: espeak-ng in a worker thread → 16-bit PCM plus word and phoneme timings.
// One worker per engine, requests served in order; a cancel terminates the worker (espeak
// cannot be interrupted mid-call) and the next request starts a fresh one.
import { Worker } from 'node:worker_threads';
import type { SpeechTimeline, TimedPhoneme, TimedWord } from '../../shared/scene/index.js';
import { EngineError } from './types.js';
import type { EspeakVoice } from './voices.js';

export interface Speech {
  samples: Int16Array;
  sampleRate: number;
  timeline: SpeechTimeline;
}

interface EspeakEvent {
  type: 'word' | 'sentence' | 'phoneme' | 'end' | 'mark' | 'msg_terminated' | 'list_terminated';
  text_position: number;
  word_length: number;
  audio_position: number;
  id?: string | number;
}

type Reply = { id: number; samples: Int16Array; sampleRate: number; events: EspeakEvent[] } | { id: number; error: string };

/** The worker thread exited while a request was out. */
class SpeechWorkerLost extends EngineError {
  constructor() {
    super('speech_failed', 'The speech synthesiser stopped unexpectedly.');
  }
}

export class SpeechSynth {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, { resolve(r: Reply): void; reject(e: Error): void }>();
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | null = null;

  /**
   * The worker stops as soon as it is idle (after idleMs), so espeak's WebAssembly heap (~50 MB)
   * is not held while a render encodes; a cold start costs ~0.2 s.
   */
  constructor(private readonly idleMs = 0) {}

  private ensureWorker(): Worker {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./speech-worker.mjs', import.meta.url));
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

  /** Synthesises text; rejects with EngineError('canceled') when the signal fires first. */
  synthesize(text: string, voice: EspeakVoice, signal?: AbortSignal): Promise<Speech> {
    const run = async (): Promise<Speech> => {
      if (signal?.aborted) throw new EngineError('canceled', 'The render was canceled.');
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
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        w.ref(); // keep the process alive while a request is out; unref'd again when idle
        w.postMessage({ id, text, voice });
      }).finally(() => {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        if (this.pending.size === 0) {
          w.unref();
          this.idleTimer = setTimeout(() => {
            if (this.worker === w && this.pending.size === 0) {
              this.worker = null;
              void w.terminate();
            }
          }, this.idleMs);
          this.idleTimer.unref();
        }
      });
      if ('error' in reply) throw new EngineError('speech_failed', `Speech synthesis failed: ${reply.error}`);
      if (reply.samples.length === 0) throw new EngineError('speech_failed', 'Speech synthesis produced no audio for this script.');
      return { samples: reply.samples, sampleRate: reply.sampleRate, timeline: buildTimeline(text, reply.events, reply.samples.length / reply.sampleRate) };
    };
    // A worker thread that dies under us (seen once on a heavily loaded machine) is replaced
    // and the request sent again, once: the render should not fail for it.
    const runOnceMore = () => run().catch((err: unknown) => {
      if (err instanceof SpeechWorkerLost && !signal?.aborted) return run();
      throw err;
    });
    const p = this.queue.then(runOnceMore, runOnceMore);
    this.queue = p.catch(() => undefined);
    return p;
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

/** Word and phoneme spans (seconds) from espeak's events; times only grow and stay inside the audio. */
export function buildTimeline(text: string, events: EspeakEvent[], durationSeconds: number): SpeechTimeline {
  const chars = Array.from(text); // espeak counts text positions in characters, from 1
  const clamp = (s: number) => Math.min(durationSeconds, Math.max(0, s));
  const marks = events.filter((e) => e.type === 'word' || e.type === 'phoneme' || e.type === 'end' || e.type === 'sentence');
  const phonemes: TimedPhoneme[] = [];
  const words: TimedWord[] = [];
  let current: TimedWord | null = null;
  let tokenStart = -1;
  for (let i = 0; i < marks.length; i++) {
    const e = marks[i]!;
    const t = clamp(e.audio_position / 1000);
    if (e.type === 'word') {
      // Captions show the script's own token (with its punctuation); espeak may split one token
      // (a number, a hyphenated word) into several words, which then merge back into one.
      let a = Math.max(0, Math.min(chars.length, e.text_position - 1));
      let b = Math.min(chars.length, a + Math.max(1, e.word_length));
      while (a > 0 && !/\s/u.test(chars[a - 1]!)) a--;
      while (b < chars.length && !/\s/u.test(chars[b]!)) b++;
      if (tokenStart === a && words.length) {
        current = words[words.length - 1]!; // same token again: its sound extends the same caption word
        continue;
      }
      tokenStart = a;
      current = { text: chars.slice(a, b).join('').trim() || '…', start: t, end: t };
      words.push(current);
    } else if (e.type === 'phoneme') {
      const next = marks.slice(i + 1).find((m) => m.type === 'phoneme' || m.type === 'word' || m.type === 'end');
      const end = clamp(next ? next.audio_position / 1000 : durationSeconds);
      const phoneme = String(e.id ?? '');
      phonemes.push({ phoneme, start: t, end: Math.max(t, end) });
      if (phoneme && current) current.end = Math.max(current.end, end);
      if (!phoneme) current = null; // a pause ends the word
    }
  }
  // Monotonic: a word never starts before the previous one.
  for (let i = 1; i < words.length; i++) {
    const prev = words[i - 1]!;
    const w = words[i]!;
    if (w.start < prev.start) w.start = prev.start;
    if (w.end < w.start) w.end = w.start;
  }
  return { durationSeconds, words: words.filter((w) => /[\p{L}\p{N}]/u.test(w.text) || w.text === '…'), phonemes };
}
