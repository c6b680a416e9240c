// espeak-ng compiled to WebAssembly for WASI (resources/espeak-ng/espeak-ng.wasm, built by
// tools/espeak-wasm/build.sh from espeak-ng's C sources and glue.c there), over its data in
// resources/espeak-ng/espeak-ng-data. Synthesis runs to the end inside WebAssembly and leaves the
// audio and the events in linear memory; nothing calls back into JavaScript while it speaks.
// espeak carries state from one utterance to the next (where its pitch flutter and noise are, its
// echo): the same text said again sounds slightly different, so a render's sound (and the mouth
// that follows its loudness) would depend on what that worker said before. Every call therefore
// starts from one saved copy of the module's memory, taken once the voice is loaded: a text and
// a voice always give the same samples.
// Plain JavaScript: the speech worker and the build tool load it as it is.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPackedFileSync } from '../../packed-file.mjs';
import { restoreMemory, saveMemory } from './memory-snapshot.mjs';
import { readOnlyWasi } from './wasi-readonly.mjs';

/** Where the module and its data ship (the same relative place in a checkout and a packaged app). */
export const ESPEAK_DIR = fileURLToPath(new URL('../../../resources/espeak-ng/', import.meta.url));

/** espeak's event types, by their number in speak_lib.h. */
const EVENT_TYPES = ['list_terminated', 'word', 'sentence', 'mark', 'play', 'end', 'msg_terminated', 'phoneme', 'samplerate'];
/** One event in glue.c's table: type, text_position, length, audio_position, number, name[8], pad. */
const EVENT_WORDS = 8;
/** Said once when a voice is loaded, before its memory is saved (what espeak sets up on first use is then in the copy). */
const WARM_UP = 'Hello.';
/**
 * Heap made free before the memory is saved, room for a long chunk's audio and events: an
 * utterance that needs more grows the memory past the copy, and the next call starts anew.
 */
const HEAP_ROOM = 4 * 1024 * 1024;
/** Voices kept loaded in one worker (each a few MB: the instance and the used part of its saved copy). */
const VOICES_READY = 4;

/**
 * Loads espeak-ng from `dir` (espeak-ng.wasm + espeak-ng-data/). `onOpen` sees every data file
 * espeak opens (tools/espeak-wasm uses it to ship only the files the catalog's voices need; it
 * passes `oneInstance`: voices change in one instance that keeps its state, so espeak lists its
 * voices once, and a text may then sound slightly different each time).
 */
export async function loadEspeak({ dir = ESPEAK_DIR, onOpen, oneInstance = false } = {}) {
  const module = await WebAssembly.compile(readPackedFileSync(join(dir, 'espeak-ng.wasm')));
  /** A fresh instance of espeak with its data loaded (and `voice` set, first used, room made on its heap), its memory saved. */
  const start = async (voice) => {
    const wasi = readOnlyWasi(dir, '/data', { onOpen });
    const instance = await WebAssembly.instantiate(module, wasi.imports);
    wasi.bind(instance);
    const x = instance.exports;
    x._initialize();
    const failed = (what, code) => {
      const said = wasi.stderr().trim().split('\n').pop();
      return new Error(`espeak-ng could not ${what} (code ${code}${said ? `: ${said}` : ''})`);
    };
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
    const sampleRate = withString('/data', (p) => x.ps_init(p));
    if (sampleRate <= 0) throw failed('load its data', sampleRate);
    if (voice) {
      const rc = withString(voice, (p) => x.ps_set_voice(p));
      if (rc !== 0) throw failed(`load the voice "${voice}"`, rc);
      withString(WARM_UP, (p) => x.ps_synth(p));
      const room = x.ps_alloc(HEAP_ROOM);
      if (!room) throw new Error('espeak-ng ran out of memory.');
      x.ps_free(room);
    }
    return { x, sampleRate, failed, withString, saved: saveMemory(new Uint8Array(x.memory.buffer)) };
  };

  let e = await start('');
  const sampleRate = e.sampleRate;
  let voiceNow = '';
  let speed = { rate: 175, pitch: 50 };
  /** Each voice used lately, ready (a narration may switch voices between scenes). */
  const ready = new Map();
  /** Back to the saved memory; a call that grew the memory past it gets a new instance (the copy's allocator no longer describes it). */
  const fresh = async () => {
    if (!oneInstance) {
      if (e.x.memory.buffer.byteLength !== e.saved.length) ready.set(voiceNow, (e = await start(voiceNow)));
      else restoreMemory(new Uint8Array(e.x.memory.buffer), e.saved);
    }
    e.x.ps_set_rate(speed.rate); // glue.c keeps them in memory the copy just replaced
    e.x.ps_set_pitch(speed.pitch);
  };

  return {
    sampleRate,
    /** Voice name with its variant ("en-us+f3"), rate in words per minute, pitch 0–99. */
    async setVoice(name, rate, pitch) {
      if (name !== voiceNow && oneInstance) {
        const rc = e.withString(name, (p) => e.x.ps_set_voice(p));
        if (rc !== 0) throw e.failed(`load the voice "${name}"`, rc);
        voiceNow = name;
      } else if (name !== voiceNow) {
        e = ready.get(name) ?? (await start(name));
        ready.delete(name);
        ready.set(name, e); // the most recent last
        if (ready.size > VOICES_READY) ready.delete(ready.keys().next().value);
        voiceNow = name;
      }
      speed = { rate, pitch };
    },
    /** 16-bit PCM at sampleRate plus espeak's events (word, sentence, phoneme with its IPA, end). */
    async synthesize(text) {
      await fresh();
      const { x, failed, withString } = e;
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
    async ipa(text) {
      await fresh();
      const { x, failed, withString } = e;
      const rc = withString(text, (p) => x.ps_ipa(p));
      if (rc !== 0) throw failed('phonemize the text', rc);
      const ptr = x.ps_ipa_text();
      const mem = new Uint8Array(x.memory.buffer);
      const end = mem.indexOf(0, ptr);
      return Buffer.from(mem.subarray(ptr, end)).toString('utf8');
    },
  };
}
