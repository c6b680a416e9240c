// Kokoro voice packs: the tokenizer turns espeak's IPA into the ids of Kokoro's published
// vocabulary; packs are downloaded and verified like Piper's (a model another pack holds is
// copied, not downloaded again) and speak with timings. The real model cannot be downloaded
// here: a tiny model with Kokoro's interface, served locally, stands in for it.
import { z } from 'zod';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeechSynth, SPEECH_SAMPLE_RATE } from '../speech/speech.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { KOKORO_MAX_IDS, kokoroIds, KokoroSpeaker, styleRow } from '../speech/speech-kokoro.js';
import { VoicePacks } from '../speech/voice-packs.js';
import { kokoroTokenizer, serveKokoroPack } from './tiny-onnx.js';

const vocab = z.object({ model: z.object({ vocab: z.record(z.string(), z.number()) }) }).parse(JSON.parse(kokoroTokenizer().toString('utf8'))).model.vocab;

describe('Kokoro tokenizer', () => {
  it('spells espeak\'s IPA as Kokoro was trained on it: words between spaces, stress marks kept, the clause ends of the text', () => {
    // espeak's phonemes of "Hello, world?" in two clauses, '_' between phonemes.
    const ids = kokoroIds('h_ə_l_ˈoʊ\nw_ˈɜː_l_d\n', vocab, 'Hello, world?');
    expect(ids).toEqual([[vocab.h, vocab['ə'], vocab.l, vocab['ˈ'], vocab.o, vocab['ʊ'], vocab[','], vocab[' '], vocab.w, vocab['ˈ'], vocab['ɜ'], vocab['ː'], vocab.l, vocab.d, vocab['?']]]);
    // A symbol the vocabulary lacks is left out, as Kokoro's own tokenizer does.
    expect(kokoroIds('ʙ_a\n', vocab, 'a.')).toEqual([[vocab.a, vocab['.']]]);
  });

  it('writes English in the symbols Kokoro\'s English voices were trained on', () => {
    // espeak's "Hi, John, go now" (en-us): aɪ, dʒ, oʊ and aʊ each become one symbol.
    const us = kokoroIds('h_ˈaɪ\ndʒ_ˈɑː_n\nɡ_ˈoʊ n_ˈaʊ\n', vocab, 'Hi, John, go now.', 'us');
    expect(us).toEqual([[vocab.h, vocab['ˈ'], vocab.I, vocab[','], vocab[' '], vocab['ʤ'], vocab['ˈ'], vocab['ɑ'], vocab['ː'], vocab.n, vocab[','], vocab[' '], vocab['ɡ'], vocab['ˈ'], vocab.O, vocab[' '], vocab.n, vocab['ˈ'], vocab.W, vocab['.']]]);
    // British "go" is əʊ: Q.
    expect(kokoroIds('ɡ_ˈəʊ\n', vocab, 'Go.', 'gb')).toEqual([[vocab['ɡ'], vocab['ˈ'], vocab.Q, vocab['.']]]);
  });

  it('cuts a long text into pieces the model takes, between clauses', () => {
    const clause = Array.from({ length: 60 }, () => 'b_a').join(' ');
    const ipa = Array.from({ length: 6 }, () => clause).join('\n');
    const pieces = kokoroIds(ipa, vocab, 'x, x, x, x, x, x.');
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(KOKORO_MAX_IDS);
    expect(pieces.flat().filter((id) => id === vocab.b).length).toBe(360);
  });

  it('takes the style row of the input length', () => {
    const styles = Float32Array.from({ length: 510 * 256 }, (_, i) => Math.floor(i / 256));
    expect(styleRow(styles, 12)[0]).toBe(12);
    expect(styleRow(styles, 900)[0]).toBe(509);
  });
});

describe('Kokoro packs (tiny model on onnxruntime-node)', () => {
  let pack: Awaited<ReturnType<typeof serveKokoroPack>>;
  const root = mkdtempSync(join(tmpdir(), 'kokoro-'));
  beforeAll(async () => {
    pack = await serveKokoroPack();
  });
  afterAll(() => {
    pack.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('downloads a verified pack, speaks with timings, and a second voice reuses the model', async () => {
    const packs = new VoicePacks(root);
    const a = pack.voice('en-US-TinyA', '9101', 'Tiny A');
    const b = pack.voice('en-US-TinyB', '9102', 'Tiny B');
    const espeak = new SpeechSynth();
    const kokoro = new KokoroSpeaker(packs, espeak);
    const engines = new SpeechEngines(espeak, { kokoro });
    try {
      expect(await packs.status(a)).toMatchObject({ state: 'missing' });
      const text = 'Good morning, and welcome to the weekly update.';
      const sp = await engines.speak(text, a);
      expect(pack.requests.sort()).toEqual(['/a.bin', '/model.onnx', '/tokenizer.json']);
      expect(sp.sampleRate).toBe(SPEECH_SAMPLE_RATE);
      expect(sp.timeline.words.map((w) => w.text)).toEqual(text.split(' '));
      expect(sp.timeline.words.at(-1)!.start).toBeGreaterThan(sp.timeline.durationSeconds * 0.3);
      expect(kokoro.stats.modelSeconds).toBeGreaterThan(0);

      pack.requests.length = 0;
      await engines.speak('Thank you for watching.', b);
      // The model and tokenizer came from the first pack (checked against their SHA-256 again).
      expect(pack.requests).toEqual(['/b.bin']);
      expect(await packs.status(b)).toMatchObject({ state: 'installed' });
    } finally {
      await engines.close();
    }
  });

  it('refuses a pack whose style file does not match its SHA-256', async () => {
    pack.corrupt = true;
    try {
      const packs = new VoicePacks(join(root, 'bad'));
      await expect(packs.ensure(pack.voice('en-US-TinyA', '9101', 'Tiny A'))).rejects.toThrow(/does not match its SHA-256/);
    } finally {
      pack.corrupt = false;
    }
  });
});
