// The speech worker thread: a thread that dies while a request is out is replaced and the
// request answered anyway, so a render does not fail for it.
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SpeechSynth } from '../speech.js';
import { espeakVoice } from '../voices.js';

const TEXT = 'Good evening. Here is the news, read slowly enough to take a moment.';

describe('speech synthesis', () => {
  it('recovers when its worker thread dies mid-request', async () => {
    const synth = new SpeechSynth();
    try {
      const pending = synth.synthesize(TEXT, espeakVoice('en-US-Ava')!);
      const internals = synth as unknown as { worker: Worker | null };
      while (!internals.worker) await new Promise((r) => setTimeout(r, 1));
      await internals.worker.terminate(); // as if the thread crashed
      const speech = await pending;
      expect(speech.samples.length / speech.sampleRate).toBeGreaterThan(2);
      expect(speech.timeline.words.map((w) => w.text).join(' ')).toBe(TEXT);
    } finally {
      await synth.close();
    }
  });
});
