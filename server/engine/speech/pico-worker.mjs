// Worker thread: SVOX Pico (WebAssembly, @echogarden/svoxpico-wasm) synthesis off the server's
// event loop. Plain JavaScript so it starts the same under tsx, vitest and a bundled app.
// Request: { id, text, voice: { dir, ta, sg } }  (language data files in dir)
// Reply:   { id, samples: Int16Array, sampleRate: 16000, events: [] } | { id, error }
// Pico reports no word timings: speech-pico.ts aligns the audio to espeak's rendering.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import createModule from '@echogarden/svoxpico-wasm';
import { readPackedFileSync } from '../../packed-file.mjs';
import { restoreMemory, saveMemory } from './memory-snapshot.mjs';

const PICO_MEM = 2_500_000; // Pico's own heap (its documented minimum is ~2 MB)
const STEP_IDLE = 200; // pico_getData: all text spoken
const STEP_BUSY = 201; // pico_getData: more audio to come

// Its module is given whole: the packaged app stores it compressed (electron/build/after-pack.mjs).
const modulePromise = createModule({ wasmBinary: readPackedFileSync(fileURLToPath(new URL('svoxpico.wasm', import.meta.resolve('@echogarden/svoxpico-wasm')))) });
/** The loaded voice (Pico keeps one engine per voice definition; switching voices reloads). */
let current = null;

function cString(m, s) {
  const bytes = Buffer.from(`${s}\0`, 'utf8');
  const ptr = m._malloc(bytes.length);
  m.HEAPU8.set(bytes, ptr);
  return { ptr, length: bytes.length };
}

function fail(m, system, code, what) {
  const buf = m._malloc(200);
  m._pico_getSystemStatusMessage(system, code, buf);
  const end = m.HEAPU8.indexOf(0, buf);
  const msg = Buffer.from(m.HEAPU8.subarray(buf, Math.min(end < 0 ? buf + 200 : end, buf + 200))).toString('utf8');
  m._free(buf);
  throw new Error(`${what} (${code}${msg ? `: ${msg}` : ''})`);
}

function load(m, voice) {
  const key = `${voice.dir}|${voice.ta}|${voice.sg}`;
  if (current && current.key === key) return current;
  unload(m);
  const mem = m._malloc(PICO_MEM);
  const out = m._malloc(8);
  let rc = m._pico_initialize(mem, PICO_MEM, out);
  const system = m.HEAP32[out >> 2];
  if (rc !== 0) fail(m, system, rc, 'Pico could not start');
  const resources = [];
  const names = [];
  for (const file of [voice.ta, voice.sg]) {
    // The packaged app stores the language files compressed (electron/build/after-pack.mjs).
    m.FS.writeFile(`/${file}`, readPackedFileSync(join(voice.dir, file)));
    const path = cString(m, `/${file}`);
    const res = m._malloc(4);
    rc = m._pico_loadResource(system, path.ptr, res);
    m._free(path.ptr);
    if (rc !== 0) fail(m, system, rc, `Pico could not load ${file}`);
    m.FS.unlink(`/${file}`);
    resources.push(res);
    const name = m._malloc(32);
    rc = m._pico_getResourceName(system, m.HEAP32[res >> 2], name);
    if (rc !== 0) fail(m, system, rc, 'Pico could not name a resource');
    names.push(name);
  }
  const voiceName = cString(m, 'PresenterStudio');
  rc = m._pico_createVoiceDefinition(system, voiceName.ptr);
  if (rc !== 0) fail(m, system, rc, 'Pico could not define the voice');
  for (const n of names) {
    rc = m._pico_addResourceToVoiceDefinition(system, voiceName.ptr, n);
    if (rc !== 0) fail(m, system, rc, 'Pico could not define the voice');
  }
  const engine = m._malloc(4);
  rc = m._pico_newEngine(system, voiceName.ptr, engine);
  if (rc !== 0) fail(m, system, rc, 'Pico could not start its engine');
  current = { key, mem, out, system, resources, names, voiceName, engine, saved: saveMemory(m.HEAPU8) };
  return current;
}

function unload(m) {
  const c = current;
  if (!c) return;
  current = null;
  m._pico_disposeEngine(c.system, c.engine);
  m._pico_releaseVoiceDefinition(c.system, c.voiceName.ptr);
  for (const r of c.resources) m._pico_unloadResource(c.system, r);
  m._pico_terminate(c.out);
  for (const p of [c.mem, c.out, c.voiceName.ptr, c.engine, ...c.resources, ...c.names]) m._free(p);
}

function speak(m, voice, text) {
  const c = load(m, voice);
  // Pico carries state from one text to the next (neither a reset nor a new engine clears it):
  // the same text would sound slightly different each time, and so would a render's mouth (it
  // follows the loudness). Every text starts from the memory saved once the voice was loaded;
  // memory grown since is zeroed, as it was when new (the allocator's break, restored, is below it).
  restoreMemory(m.HEAPU8, c.saved);
  const engine = m.HEAP32[c.engine >> 2];
  const t = cString(m, text);
  const sent = m._malloc(4);
  const buf = m._malloc(4096);
  const count = m._malloc(4);
  const type = m._malloc(4);
  const parts = [];
  let total = 0;
  try {
    for (let off = 0; off < t.length; ) {
      m.HEAP16[sent >> 1] = 0;
      const rc = m._pico_putTextUtf8(engine, t.ptr + off, Math.min(t.length - off, 32000), sent);
      if (rc !== 0) fail(m, c.system, rc, 'Pico could not take the text');
      off += m.HEAP16[sent >> 1];
      for (;;) {
        const step = m._pico_getData(engine, buf, 4096, count, type);
        if (step !== STEP_IDLE && step !== STEP_BUSY) fail(m, c.system, step, 'Pico failed while speaking');
        const n = m.HEAP16[count >> 1];
        if (n > 0) {
          parts.push(m.HEAPU8.slice(buf, buf + n));
          total += n;
        }
        if (step === STEP_IDLE) break;
      }
    }
  } finally {
    for (const p of [t.ptr, sent, buf, count, type]) m._free(p);
  }
  const bytes = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    bytes.set(p, o);
    o += p.length;
  }
  return new Int16Array(bytes.buffer, 0, total >> 1);
}

parentPort.on('message', async (req) => {
  try {
    const m = await modulePromise;
    const samples = speak(m, req.voice, req.text);
    parentPort.postMessage({ id: req.id, samples, sampleRate: 16000, events: [] }, [samples.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: req.id, error: String(err && err.message ? err.message : err) });
  }
});
