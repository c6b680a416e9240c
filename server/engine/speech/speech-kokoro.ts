// Kokoro (StyleTTS 2 + iSTFTNet, Apache-2.0) neural voices on onnxruntime-node: the pack (the
// model, its tokenizer.json, the voice's style vectors) is downloaded on demand and verified as
// Piper's (voice-packs.ts), onnxruntime as for Piper (onnx-runtime.ts); espeak-ng turns the text into IPA, spelled as Kokoro's phonemizer
// writes it, and the tokenizer's vocabulary into ids; the model returns 24 kHz audio, which is
// timed by alignment to espeak's rendering (speech-engines.ts).
import type { LexiconEntry } from '../../../shared/contract/index.js';
import { z } from 'zod';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import type { RawSpeech, SpeechSynth } from './speech.js';
import { EngineError } from '../types.js';
import { PackModels, type SpeakerStats } from './pack-models.js';
import { spelledPhonemes } from './speech-piper.js';
import type { VoicePacks } from './voice-packs.js';
import type { EngineVoice } from './voices.js';

/** Kokoro's output rate. */
export const KOKORO_SAMPLE_RATE = 24000;
/** Style vectors are rows of this many floats. */
const STYLE_DIM = 256;
/** The most phoneme ids one call may take (the pads at both ends not counted). */
export const KOKORO_MAX_IDS = 510;

/** The part of Kokoro's tokenizer.json read here: its vocabulary, "$" the pad at both ends. */
const KokoroTokenizer = z.object({
  model: z.object({ vocab: z.record(z.string(), z.number().int().min(0)).refine((v) => v.$ !== undefined, 'has no pad "$"') }),
});

/**
 * espeak's English IPA in the symbols Kokoro's English voices were trained on (misaki's
 * inventory): one letter for each diphthong and affricate (eɪ A, aɪ I, aʊ W, ɔɪ Y, dʒ ʤ, tʃ ʧ;
 * oʊ O in American, əʊ Q in British English), r-coloured schwa as ə + ɹ, espeak's near-open
 * central vowel as schwa, no palatalisation mark.
 */
export function kokoroEnglish(ipa: string, british: boolean): string {
  let s = ipa.replaceAll('dʒ', 'ʤ').replaceAll('tʃ', 'ʧ').replaceAll('eɪ', 'A').replaceAll('aɪ', 'I').replaceAll('aʊ', 'W').replaceAll('ɔɪ', 'Y');
  s = british ? s.replaceAll('əʊ', 'Q') : s.replaceAll('oʊ', 'O');
  return s.replaceAll('ɚ', 'əɹ').replaceAll('ɐ', 'ə').replaceAll('ʲ', '').replaceAll('r', 'ɹ');
}

/**
 * Kokoro's input ids for espeak's IPA of a text, in pieces of at most KOKORO_MAX_IDS (cut between
 * clauses; a longer clause between words), each without its pads. Symbols the vocabulary lacks
 * are left out, as Kokoro's own tokenizer does.
 */
export function kokoroIds(ipa: string, vocab: Record<string, number>, text = '', english?: 'us' | 'gb'): number[][] {
  const pieces: number[][] = [];
  let piece: number[] = [];
  const space = vocab[' '];
  for (const spelled of spelledPhonemes(ipa, text)) {
    const clause = english ? kokoroEnglish(spelled, english === 'gb') : spelled;
    const ids = Array.from(clause).flatMap((ch) => (vocab[ch] === undefined ? [] : [vocab[ch]]));
    if (piece.length + ids.length > KOKORO_MAX_IDS && piece.length) {
      pieces.push(piece);
      piece = [];
    }
    while (ids.length > KOKORO_MAX_IDS) {
      const cut = ids.lastIndexOf(space ?? -1, KOKORO_MAX_IDS);
      pieces.push(ids.splice(0, cut > 0 ? cut + 1 : KOKORO_MAX_IDS));
    }
    piece.push(...ids);
  }
  if (piece.length) pieces.push(piece);
  // A clause's trailing space is no sound of its own.
  return pieces.map((p) => (p[p.length - 1] === space ? p.slice(0, -1) : p)).filter((p) => p.length > 0);
}

/** The style row for an input of `n` ids: Kokoro's voices hold one per length. */
export function styleRow(styles: Float32Array, n: number): Float32Array {
  const rows = Math.floor(styles.length / STYLE_DIM);
  const row = Math.min(n, rows - 1);
  return styles.subarray(row * STYLE_DIM, (row + 1) * STYLE_DIM);
}

interface Loaded {
  session: InferenceSession;
  vocab: Record<string, number>;
  styles: Float32Array;
}

export class KokoroSpeaker {
  private readonly models: PackModels<Loaded>;
  readonly stats: SpeakerStats = { modelSeconds: 0, totalSeconds: 0, audioSeconds: 0 };

  constructor(
    packs: VoicePacks,
    private readonly espeak: SpeechSynth,
  ) {
    this.models = new PackModels(packs, async (voice, dir, session) => {
      let vocab: Record<string, number>;
      try {
        vocab = KokoroTokenizer.parse(JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8'))).model.vocab;
      } catch (e) {
        throw new EngineError('speech_failed', `The voice pack of ${voice.name} has no readable Kokoro tokenizer (${e instanceof Error ? e.message : String(e)}).`);
      }
      const bin = await readFile(join(dir, 'voice.bin'));
      if (bin.length < STYLE_DIM * 4 || bin.length % (STYLE_DIM * 4) !== 0) throw new EngineError('speech_failed', `The voice pack of ${voice.name} has no Kokoro style vectors.`);
      const styles = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length));
      return { session: await session(), vocab, styles };
    });
  }

  async prepare(voice: EngineVoice): Promise<void> {
    await this.models.get(voice);
  }

  async raw(text: string, voice: EngineVoice, signal?: AbortSignal, lexicon?: readonly LexiconEntry[]): Promise<RawSpeech> {
    const t0 = performance.now();
    const [{ session, vocab, styles }, ipa] = await Promise.all([this.models.get(voice), this.espeak.ipa(text, voice.espeak, signal, lexicon)]);
    const lang = voice.espeak.voice;
    const pieces = kokoroIds(ipa, vocab, text, lang === 'en-us' ? 'us' : lang.startsWith('en') ? 'gb' : undefined);
    if (!pieces.length) throw new EngineError('speech_failed', 'Speech synthesis produced no phonemes for this script.');
    const Tensor = await this.models.tensor();
    const pad = BigInt(vocab.$!);
    const parts: Float32Array[] = [];
    for (const ids of pieces) {
      if (signal?.aborted) throw new EngineError('canceled', 'The render was canceled.');
      const feeds = {
        input_ids: new Tensor('int64', BigInt64Array.from([pad, ...ids.map(BigInt), pad]), [1, ids.length + 2]),
        style: new Tensor('float32', Float32Array.from(styleRow(styles, ids.length)), [1, STYLE_DIM]),
        speed: new Tensor('float32', Float32Array.of(voice.kokoro?.speed ?? 1), [1]),
      };
      const tm = performance.now();
      const out = await session.run(feeds);
      this.stats.modelSeconds += (performance.now() - tm) / 1000;
      parts.push((out.waveform ?? Object.values(out)[0])!.data as Float32Array);
    }
    const total = parts.reduce((n, p) => n + p.length, 0);
    const samples = new Int16Array(total);
    let at = 0;
    for (const p of parts) for (const x of p) samples[at++] = Math.round(Math.max(-1, Math.min(1, x)) * 32767);
    this.stats.totalSeconds += (performance.now() - t0) / 1000;
    this.stats.audioSeconds += total / KOKORO_SAMPLE_RATE;
    return { samples, sampleRate: KOKORO_SAMPLE_RATE, events: [] };
  }

  close(): Promise<void> {
    return this.models.close();
  }

}
