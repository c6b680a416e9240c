// Worker thread: espeak-ng (WebAssembly) synthesis off the server's event loop.
// Plain JavaScript so it starts the same under tsx, vitest and a bundled app.
// Request: { id, text, voice: { voice, variant, pitch, rate }, op? }  (op 'ipa': phonemes only)
// Reply:   { id, samples: Int16Array, sampleRate, events } | { id, ipa } | { id, error }
import { parentPort } from 'node:worker_threads';
import createModule from '@echogarden/espeak-ng-emscripten';

const modulePromise = createModule();
let worker = null;

parentPort.on('message', async (req) => {
  try {
    const m = await modulePromise;
    if (!worker) worker = new m.eSpeakNGWorker();
    const v = req.voice;
    worker.set_voice(v.variant ? `${v.voice}+${v.variant}` : v.voice);
    worker.set_rate(v.rate);
    worker.set_pitch(v.pitch);
    if (req.op === 'ipa') {
      const r = worker.synthesize_ipa(req.text);
      if (r.code !== 0) throw new Error(`espeak-ng could not phonemize the text (code ${r.code})`);
      parentPort.postMessage({ id: req.id, ipa: r.ipa });
      return;
    }
    const chunks = [];
    const events = [];
    worker.synthesize(req.text, (audio, evs) => {
      if (audio && audio.length) chunks.push(audio);
      for (const e of evs) if (e.type !== 'play' && e.type !== 'samplerate') events.push(e);
      return false;
    });
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const samples = new Int16Array(total);
    let o = 0;
    for (const c of chunks) {
      samples.set(c, o);
      o += c.length;
    }
    parentPort.postMessage({ id: req.id, samples, sampleRate: worker.get_samplerate(), events }, [samples.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: req.id, error: String(err && err.message ? err.message : err) });
  }
});
