// Worker thread: espeak-ng (WebAssembly, espeak-wasm.mjs) synthesis off the server's event loop.
// Plain JavaScript so it starts the same under tsx, vitest and a bundled app.
// Request: { id, text, voice: { voice, variant, pitch, rate }, op? }  (op 'ipa': phonemes only)
// Reply:   { id, samples: Int16Array, sampleRate, events } | { id, ipa } | { id, error }
import { parentPort } from 'node:worker_threads';
import { loadEspeak } from './espeak-wasm.mjs';

const espeakPromise = loadEspeak();

parentPort.on('message', async (req) => {
  try {
    const espeak = await espeakPromise;
    const v = req.voice;
    await espeak.setVoice(v.variant ? `${v.voice}+${v.variant}` : v.voice, v.rate, v.pitch);
    if (req.op === 'ipa') {
      parentPort.postMessage({ id: req.id, ipa: await espeak.ipa(req.text) });
      return;
    }
    const { samples, sampleRate, events } = await espeak.synthesize(req.text);
    const kept = events.filter((e) => e.type !== 'play' && e.type !== 'samplerate');
    parentPort.postMessage({ id: req.id, samples, sampleRate, events: kept }, [samples.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: req.id, error: String(err && err.message ? err.message : err) });
  }
});
