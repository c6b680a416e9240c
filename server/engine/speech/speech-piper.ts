// Piper (VITS) neural voices on onnxruntime-node: the pack (model.onnx + Piper's config.json) is
// downloaded on demand (voice-packs.ts); espeak-ng turns the text into IPA phonemes, the
// config's phoneme_id_map into ids; the model returns the waveform. onnxruntime is loaded only
// when a neural voice first speaks (and downloaded then where the app does not carry it:
// onnx-runtime.ts), so the espeak and Pico paths never pay for it.
import { z } from 'zod';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import type { LexiconEntry } from '../../../shared/contract/index.js';
import type { RawSpeech, SpeechSynth } from './speech.js';
import { EngineError } from '../types.js';
import { PackModels, type SpeakerStats } from './pack-models.js';
import type { VoicePacks } from './voice-packs.js';
import type { EngineVoice } from './voices.js';

/** The parts of Piper's <voice>.onnx.json this engine reads (a downloaded file: checked, not trusted). */
const PiperConfig = z.object({
  audio: z.object({ sample_rate: z.number().int().positive() }),
  num_speakers: z.number().int().min(1).optional(),
  inference: z.object({ noise_scale: z.number().optional(), length_scale: z.number().optional(), noise_w: z.number().optional() }).optional(),
  phoneme_id_map: z.record(z.string(), z.array(z.number().int().min(0))),
});
type PiperConfig = z.infer<typeof PiperConfig>;

interface Loaded {
  session: InferenceSession;
  config: PiperConfig;
}

/** Where espeak ends a clause: punctuation before a space or the end. */
const CLAUSE_END = /([.,!?;:…—–]+)(?=\s|$)/gu;

/**
 * The punctuation that ends each clause of the text, as Piper's phonemizer keeps it ("?" gives a
 * question's tone), or null when the text's clauses are not espeak's (an abbreviation it does
 * not end a clause at, say): then "," between clauses and "." at the end.
 */
function clauseEnds(text: string, clauses: number): string[] | null {
  const ends = [...text.trim().matchAll(CLAUSE_END)].map((m) => {
    const p = m[1]!;
    return p.includes('?') ? '?' : p.includes('!') ? '!' : /[.…]/u.test(p) ? '.' : /[;:]/u.test(p) ? p[0]! : ',';
  });
  // A text that does not end in punctuation ends its last clause anyway.
  if (!/[.,!?;:…—–]$/u.test(text.trim())) ends.push('.');
  return ends.length === clauses ? ends : null;
}

/**
 * espeak's IPA (clauses on lines, '_' between phonemes) spelled as the phonemizers neural voices
 * were trained on write it: words between spaces, each clause ended by the text's punctuation.
 */
export function spelledPhonemes(ipa: string, text = ''): string[] {
  const clauses = ipa.split('\n').map((l) => l.replaceAll('_', '').trim()).filter(Boolean);
  const ends = clauseEnds(text, clauses.length);
  return clauses.map((clause, i) => {
    const end = ends?.[i] ?? (i + 1 < clauses.length ? ',' : '.');
    return i + 1 < clauses.length ? `${clause}${end} ` : `${clause}${end}`;
  });
}

/** Piper's sequence: BOS, then every phoneme followed by the pad id, then EOS. */
export function phonemeIds(ipa: string, map: Record<string, number[]>, text = ''): number[] {
  const id = (p: string) => map[p] ?? [];
  const ids = [...id('^'), ...id('_')];
  for (const spelled of spelledPhonemes(ipa, text)) {
    for (const ch of Array.from(spelled.normalize('NFD'))) {
      const found = id(ch);
      if (found.length) ids.push(...found, ...id('_'));
    }
  }
  ids.push(...id('$'));
  return ids;
}

export class PiperSpeaker {
  private readonly models: PackModels<Loaded>;
  readonly stats: SpeakerStats = { modelSeconds: 0, totalSeconds: 0, audioSeconds: 0 };

  constructor(
    packs: VoicePacks,
    private readonly espeak: SpeechSynth,
  ) {
    this.models = new PackModels(packs, async (voice, dir, session) => {
      let config: PiperConfig;
      try {
        config = PiperConfig.parse(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')));
      } catch {
        throw new EngineError('speech_failed', `The voice pack of ${voice.name} has no readable Piper config.`);
      }
      return { session: await session(), config };
    });
  }

  /** Downloads (when missing) and loads the voice's model. */
  async prepare(voice: EngineVoice): Promise<void> {
    await this.models.get(voice);
  }

  async raw(text: string, voice: EngineVoice, signal?: AbortSignal, lexicon?: readonly LexiconEntry[]): Promise<RawSpeech> {
    const t0 = performance.now();
    const [{ session, config }, ipa] = await Promise.all([this.models.get(voice), this.espeak.ipa(text, voice.espeak, signal, lexicon)]);
    if (signal?.aborted) throw new EngineError('canceled', 'The render was canceled.');
    const ids = phonemeIds(ipa, config.phoneme_id_map, text);
    if (ids.length < 4) throw new EngineError('speech_failed', 'Speech synthesis produced no phonemes for this script.');
    const Tensor = await this.models.tensor();
    const inf = config.inference ?? {};
    const feeds: Record<string, InstanceType<typeof Tensor>> = {
      input: new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
      input_lengths: new Tensor('int64', BigInt64Array.of(BigInt(ids.length)), [1]),
      scales: new Tensor('float32', Float32Array.of(inf.noise_scale ?? 0.667, inf.length_scale ?? 1, inf.noise_w ?? 0.8), [3]),
    };
    if ((config.num_speakers ?? 1) > 1) feeds.sid = new Tensor('int64', BigInt64Array.of(BigInt(voice.piper?.speaker ?? 0)), [1]);
    const tm = performance.now();
    const out = await session.run(feeds);
    this.stats.modelSeconds += (performance.now() - tm) / 1000;
    const audio = (out.output ?? Object.values(out)[0])!.data as Float32Array;
    // Piper's own post-processing: peak-normalise, then 16-bit.
    let peak = 0;
    for (const x of audio) peak = Math.max(peak, Math.abs(x));
    const gain = 32767 / Math.max(0.01, peak);
    const samples = Int16Array.from(audio, (x) => Math.round(x * gain));
    this.stats.totalSeconds += (performance.now() - t0) / 1000;
    this.stats.audioSeconds += samples.length / config.audio.sample_rate;
    return { samples, sampleRate: config.audio.sample_rate, events: [] };
  }

  close(): Promise<void> {
    return this.models.close();
  }

}
