// The warm studio's rehearsal of a render (rehearsal.ts): it composes a sentence's frames with
// the real speech and drawing, gives way to a render, and a speech failure only ends it.
import { describe, expect, it } from 'vitest';
import { rehearseRender } from '../rehearsal.js';
import { SpeechSynth } from '../speech.js';
import { SpeechEngines } from '../speech-engines.js';
import { EngineError } from '../types.js';

describe('a rehearsal', () => {
  it('composes a whole sentence of frames, in slices, and stops as soon as a render comes', async () => {
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      let turns = 0;
      await rehearseRender(engines, () => (turns++, false));
      expect(turns).toBeGreaterThan(15); // ~6 s of frames, 8 between turns of the event loop
      let asked = 0;
      await rehearseRender(engines, () => ++asked > 2);
      expect(asked).toBe(3);
    } finally {
      await engines.close();
    }
  });

  it('ends quietly when speech fails, and leaves any other error to its caller', async () => {
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      const failing = (err: Error) => Object.assign(Object.create(engines) as SpeechEngines, { speak: () => Promise.reject(err) });
      await expect(rehearseRender(failing(new EngineError('speech_failed', 'no audio')), () => false)).resolves.toBeUndefined();
      await expect(rehearseRender(failing(new TypeError('a bug')), () => false)).rejects.toThrow('a bug');
    } finally {
      await engines.close();
    }
  });
});
