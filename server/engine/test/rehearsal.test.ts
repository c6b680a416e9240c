// The warm studio's rehearsal of a render (rehearsal.ts): it composes a sentence's frames with
// the real speech and drawing, waits while a render runs, ends when the studio closes, and a
// speech failure only ends it.
import { describe, expect, it, vi } from 'vitest';
import { rehearseRender } from '../rehearsal.js';
import { SpeechSynth } from '../speech/speech.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { EngineError } from '../types.js';

const idle = () => Promise.resolve();
const open = () => false;

describe('a rehearsal', () => {
  it('composes a whole sentence of frames in slices, waits while a render runs, and ends when the studio closes', async () => {
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      let turns = 0;
      await rehearseRender(engines, () => (turns++, idle()), open);
      expect(turns).toBeGreaterThan(15); // ~6 s of frames, 8 between turns of the event loop
      // A render running: the rehearsal waits at its next turn, and goes on to the end after it.
      let release = () => undefined as void;
      const render = new Promise<void>((resolve) => (release = resolve));
      let waits = 0;
      let done = false;
      const rehearsal = rehearseRender(engines, () => (++waits === 2 ? render : idle()), open).then(() => (done = true));
      // However slow the machine: it reaches the render's turn, then stays there.
      await vi.waitFor(() => expect(waits).toBe(2), { timeout: 30_000, interval: 20 });
      await new Promise((r) => setTimeout(r, 200));
      expect([waits, done]).toEqual([2, false]);
      release();
      await rehearsal;
      expect(waits).toBe(turns);
      let asked = 0;
      await rehearseRender(engines, idle, () => ++asked > 2);
      expect(asked).toBe(3);
    } finally {
      await engines.close();
    }
  });

  it('ends quietly when speech fails, and leaves any other error to its caller', async () => {
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      const failing = (err: Error) => Object.assign(Object.create(engines) as SpeechEngines, { speak: () => Promise.reject(err) });
      await expect(rehearseRender(failing(new EngineError('speech_failed', 'no audio')), idle, open)).resolves.toBeUndefined();
      await expect(rehearseRender(failing(new TypeError('a bug')), idle, open)).rejects.toThrow('a bug');
    } finally {
      await engines.close();
    }
  });
});
