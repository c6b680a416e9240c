// espeak-ng compiled to WebAssembly for WASI (resources/espeak-ng/espeak-ng.wasm, built by
// tools/espeak-wasm/build.sh from espeak-ng's C sources and glue.c there), over its data in
// resources/espeak-ng/espeak-ng-data. Synthesis runs to the end inside WebAssembly and leaves the
// audio and the events in linear memory; nothing calls back into JavaScript while it speaks.
// Plain JavaScript: the speech worker and the build tool load it as it is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOnlyWasi } from './wasi-readonly.mjs';

/** Where the module and its data ship (the same relative place in a checkout and a packaged app). */
export const ESPEAK_DIR = fileURLToPath(new URL('../../../resources/espeak-ng/', import.meta.url));

/** espeak's event types, by their number in speak_lib.h. */
const EVENT_TYPES = ['list_terminated', 'word', 'sentence', 'mark', 'play', 'end', 'msg_terminated', 'phoneme', 'samplerate'];
/** One event in glue.c's table: type, text_position, length, audio_position, number, name[8], pad. */
const EVENT_WORDS = 8;

/**
 * Loads espeak-ng from `dir` (espeak-ng.wasm + espeak-ng-data/). `onOpen` sees every data file
 * espeak opens (tools/espeak-wasm uses it to ship only the files the catalog's voices need).
 */
export async function loadEspeak({ dir = ESPEAK_DIR, onOpen } = {}) {
  const wasi = readOnlyWasi(dir, '/data', { onOpen });
  const module = await WebAssembly.compile(readFileSync(join(dir, 'espeak-ng.wasm')));
  const instance = await WebAssembly.instantiate(module, wasi.imports);
  wasi.bind(instance);
  const x = instance.exports;
  x._initialize();

  /** Runs f with text as a NUL-terminated UTF-8 string in the module's memory. */
  const withString = (text, f) => {
    const b = Buffer.from(`${text}\0`, 'utf8');
    const ptr = x.ps_alloc(b.length);
    if (!ptr) throw new Error('espeak-ng ran out of memory.');
    try {
      new Uint8Array(x.memory.buffer).set(b, ptr);
      return f(ptr);
    } finally {
      x.ps_free(ptr);
    }
  };
  const failed = (what, code) => {
    const said = wasi.stderr().trim().split('\n').pop();
    return new Error(`espeak-ng could not ${what} (code ${code}${said ? `: ${said}` : ''})`);
  };

  const sampleRate = withString('/data', (p) => x.ps_init(p));
  if (sampleRate <= 0) throw failed('load its data', sampleRate);
  let voiceNow = '';

  return {
    sampleRate,
    /** Voice name with its variant ("en-us+f3"), rate in words per minute, pitch 0–99. */
    setVoice(name, rate, pitch) {
      if (name !== voiceNow) {
        const rc = withString(name, (p) => x.ps_set_voice(p));
        if (rc !== 0) throw failed(`load the voice "${name}"`, rc);
        voiceNow = name;
      }
      x.ps_set_rate(rate);
      x.ps_set_pitch(pitch);
    },
    /** 16-bit PCM at sampleRate plus espeak's events (word, sentence, phoneme with its IPA, end). */
    synthesize(text) {
      const rc = withString(text, (p) => x.ps_synth(p));
      if (rc !== 0) throw failed('speak the text', rc);
      const samples = new Int16Array(x.memory.buffer, x.ps_pcm(), x.ps_pcm_length()).slice();
      const count = x.ps_event_count();
      const base = x.ps_events();
      const words = new Int32Array(x.memory.buffer, base, count * EVENT_WORDS);
      const mem = new Uint8Array(x.memory.buffer);
      const events = [];
      for (let i = 0; i < count; i++) {
        const o = i * EVENT_WORDS;
        const type = EVENT_TYPES[words[o]] ?? 'mark';
        let id;
        if (type === 'word' || type === 'sentence') id = words[o + 4];
        else if (type === 'phoneme') {
          const at = base + o * 4 + 20;
          let end = at;
          while (end < at + 8 && mem[end] !== 0) end++;
          id = Buffer.from(mem.subarray(at, end)).toString('utf8');
        }
        events.push({ type, text_position: words[o + 1], word_length: words[o + 2], audio_position: words[o + 3], id });
      }
      return { samples, sampleRate, events };
    },
    /** The text's phonemes in IPA ('_' between phonemes), one clause per line. */
    ipa(text) {
      const rc = withString(text, (p) => x.ps_ipa(p));
      if (rc !== 0) throw failed('phonemize the text', rc);
      const ptr = x.ps_ipa_text();
      const mem = new Uint8Array(x.memory.buffer);
      const end = mem.indexOf(0, ptr);
      return Buffer.from(mem.subarray(ptr, end)).toString('utf8');
    },
  };
}
