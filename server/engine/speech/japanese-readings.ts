// Japanese kanji read as words: espeak-ng's Japanese reads kana only (each kanji was said as
// "Chinese letter"). kuromoji (a morphological analyser; its IPADIC dictionary ships in its npm
// package) splits every run of Japanese writing that holds kanji into words and gives each its
// pronunciation, which the voice is given in hiragana; captions keep the kanji (the rewrite maps
// every reading back to its run, espeak-text.ts). kuromoji runs in a worker (japanese-worker.mjs),
// started on the first Japanese text with kanji and retired after a while unused (unref'd while
// idle, so it never keeps a process alive).
import { Worker } from 'node:worker_threads';
import { EngineError } from '../types.js';
import type { Rewrite } from './text-rules.js';

/** A run of Japanese writing (kanji, kana, the long-vowel mark, 々) with at least one kanji. */
const KANJI_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]*[\p{Script=Han}々〆][\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]*/gu;
/** The worker (and its ~90 MB dictionary) stays this long after its last request. */
const IDLE_MS = 5 * 60_000;

let worker: Worker | null = null;
let idle: NodeJS.Timeout | null = null;
let nextId = 1;
const pending = new Map<number, { resolve(r: string[]): void; reject(e: Error): void }>();

function ensureWorker(): Worker {
  if (idle) clearTimeout(idle);
  idle = null;
  if (worker) return worker;
  const w = new Worker(new URL('./japanese-worker.mjs', import.meta.url));
  w.on('message', (r: { id: number; readings?: string[]; error?: string }) => {
    const p = pending.get(r.id);
    pending.delete(r.id);
    if (r.readings) p?.resolve(r.readings);
    else p?.reject(new EngineError('speech_failed', `Japanese could not be read: ${r.error ?? 'no answer'}.`));
    if (pending.size === 0) {
      w.unref();
      idle = setTimeout(() => {
        if (worker === w && pending.size === 0) {
          worker = null;
          void w.terminate();
        }
      }, IDLE_MS);
      idle.unref();
    }
  });
  const lost = (err: Error) => {
    if (worker !== w) return;
    worker = null;
    for (const p of pending.values()) p.reject(new EngineError('speech_failed', `Japanese could not be read: ${err.message}.`));
    pending.clear();
  };
  w.on('error', lost);
  w.on('exit', () => lost(new Error('the reader stopped unexpectedly')));
  worker = w;
  return w;
}

/** Each run of the text with kanji, and its reading in kana (none: an empty map). */
export async function japaneseReadings(text: string): Promise<Map<string, string>> {
  const runs = [...new Set(text.match(KANJI_RUN) ?? [])];
  if (!runs.length) return new Map();
  const w = ensureWorker();
  const id = nextId++;
  w.ref(); // a request is out
  const readings = await new Promise<string[]>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, runs });
  });
  return new Map(runs.map((run, i) => [run, readings[i]!]));
}

/** The rewrite of every run with kanji into its reading (from japaneseReadings of the same text). */
export function readingsRewrite(readings: ReadonlyMap<string, string>): Rewrite {
  return [KANJI_RUN, (m) => readings.get(m[0]) ?? m[0]];
}
