// Worker thread: Flite (WebAssembly, flite-wasm.mjs) synthesis off the server's event loop.
// Plain JavaScript so it starts the same under tsx, vitest and a bundled app.
// Request: { id, text, voice: { voice, stretch? } }
// Reply:   { id, samples: Int16Array, sampleRate: 16000, events: [] } | { id, error }
// Flite's timings are not used: speech-engines.ts aligns its audio to espeak's rendering, as Pico's.
import { parentPort } from 'node:worker_threads';
import { loadFlite } from './flite-wasm.mjs';

const flitePromise = loadFlite();

parentPort.on('message', async (req) => {
  try {
    const flite = await flitePromise;
    const { samples, sampleRate } = flite.synthesize(req.text, req.voice.voice, req.voice.stretch ?? 1);
    parentPort.postMessage({ id: req.id, samples, sampleRate, events: [] }, [samples.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: req.id, error: String(err && err.message ? err.message : err) });
  }
});
