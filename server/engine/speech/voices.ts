// The voice catalog's engine settings (resources/voices.json): which speech engine speaks each
// voice and how. Every voice has an `espeak` block: espeak voices are spoken by it; for the other
// engines it is the reference rendering their audio is aligned to (word and phoneme timings) and,
// for neural packs, the phonemizer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Gender, Pace, VoiceEngine, VoiceQuality } from '../../../shared/contract/index.js';
import { RESOURCES_DIR } from '../frames/assets.js';

const EspeakVoice = z.strictObject({
  voice: z.string().min(1),
  variant: z.string().optional(),
  pitch: z.number().int().min(0).max(99),
  rate: z.number().int().min(80).max(450),
});
export type EspeakVoice = z.infer<typeof EspeakVoice>;

/** SVOX Pico language data under resources/voices/pico: text analysis + signal generation. */
const PicoVoice = z.strictObject({ ta: z.string().regex(/^[\w-]+_ta\.bin$/), sg: z.string().regex(/^[\w-]+_sg\.bin$/) });
export type PicoVoice = z.infer<typeof PicoVoice>;

/** A Flite voice built into flite.wasm (flite-wasm.mjs); `stretch` > 1 speaks slower. */
const FliteVoice = z.strictObject({ voice: z.enum(['awb', 'rms', 'slt']), stretch: z.number().min(0.5).max(2).optional() });
export type FliteVoice = z.infer<typeof FliteVoice>;

/** One file of a downloadable voice pack, checked by size and SHA-256 before it is used. */
const PackFile = z.strictObject({
  name: z.string().regex(/^[\w.-]+$/),
  url: z.url({ protocol: /^https?$/ }),
  bytes: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type PackFile = z.infer<typeof PackFile>;

/** A Piper (VITS) voice pack: `model.onnx` + `config.json` (Piper's own .onnx.json). */
const PiperVoice = z.strictObject({
  files: z.array(PackFile).refine((f) => ['model.onnx', 'config.json'].every((n) => f.some((x) => x.name === n)), 'must hold model.onnx and config.json'),
  /** Multi-speaker models take a speaker id. */
  speaker: z.number().int().min(0).optional(),
  /** The terms of the voice's data and model, shown before the download (creators publish what it says). */
  licence: z.string().min(1),
});
export type PiperVoice = z.infer<typeof PiperVoice>;

/**
 * A Kokoro voice pack: the model (StyleTTS 2 + iSTFTNet, shared by every Kokoro voice: a verified
 * copy another pack holds is reused), its tokenizer.json (the phoneme vocabulary) and the voice's
 * style vectors (`voice.bin`: float32 rows of 256, one per input length).
 */
const KokoroVoice = z.strictObject({
  files: z.array(PackFile).refine((f) => ['model.onnx', 'tokenizer.json', 'voice.bin'].every((n) => f.some((x) => x.name === n)), 'must hold model.onnx, tokenizer.json and voice.bin'),
  /** Speaking rate the model is given (1 = its own). */
  speed: z.number().min(0.5).max(2).optional(),
  licence: z.string().min(1),
});
export type KokoroVoice = z.infer<typeof KokoroVoice>;

/** One entry of voices.json; the public fields are the contract's, the engine blocks stay on the server. */
export const EngineVoice = z
  .strictObject({
    id: z.string().regex(/^[a-z]{2,3}-[A-Z]{2}-[A-Za-z]+$/),
    numericId: z.string().regex(/^\d+$/),
    name: z.string().min(1),
    locale: z.string().regex(/^[a-z]{2,3}-[A-Z]{2}$/),
    gender: Gender,
    engine: VoiceEngine,
    quality: VoiceQuality,
    espeak: EspeakVoice,
    pico: PicoVoice.optional(),
    flite: FliteVoice.optional(),
    piper: PiperVoice.optional(),
    kokoro: KokoroVoice.optional(),
    /** Measured by tools/engine/voice-pace.ts: what the app's length estimate reads. */
    pace: Pace.optional(),
  })
  .refine((v) => v.engine === 'espeak' || v[v.engine] !== undefined, { message: 'needs the block of its engine' })
  .refine((v) => v.id.startsWith(`${v.locale}-`), { message: 'id must start with the locale' });
export type EngineVoice = z.infer<typeof EngineVoice>;

export const VoiceFile = z.strictObject({ voices: z.array(EngineVoice).min(1) }).superRefine((f, ctx) => {
  const seen = new Set<string>();
  for (const v of f.voices)
    for (const id of [v.id, v.numericId]) {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `id "${id}" is used twice` });
      seen.add(id);
    }
});

/** The downloadable pack of a neural voice (its files and terms), or null for a voice that ships. */
export function packOf(v: EngineVoice): { files: PackFile[]; licence: string } | null {
  return v.piper ?? v.kokoro ?? null;
}

const cache = new Map<string, EngineVoice[]>();

/** The catalog's voices (voices.json in `dir`, default the bundled resources), validated once. */
export function catalogVoices(dir = RESOURCES_DIR): EngineVoice[] {
  let v = cache.get(dir);
  if (!v) {
    const file = join(dir, 'voices.json');
    const parsed = VoiceFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`${file} is not a valid voice catalog: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    v = parsed.data.voices;
    cache.set(dir, v);
  }
  return v;
}

/** A catalog voice by canonical or numeric id, or null when unknown. */
export function engineVoice(voiceId: string, dir = RESOURCES_DIR): EngineVoice | null {
  return catalogVoices(dir).find((x) => x.id === voiceId || x.numericId === voiceId) ?? null;
}

/** espeak settings of a catalog voice (canonical or numeric id), or null when unknown. */
export function espeakVoice(voiceId: string, dir = RESOURCES_DIR): EspeakVoice | null {
  return engineVoice(voiceId, dir)?.espeak ?? null;
}

/** Where the bundled SVOX Pico language data lives. */
export const PICO_DATA_DIR = join(RESOURCES_DIR, 'voices', 'pico');
