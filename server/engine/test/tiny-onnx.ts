// A tiny ONNX model with a Piper VITS voice's interface (inputs `input` int64 [1, N],
// `input_lengths` int64 [1], `scales` float [3]; output `output` float [1, 1, N·HOP]), written
// as protobuf by hand (no Python here): each phoneme id becomes HOP samples of a tone whose
// pitch follows the id. Real packs cannot be downloaded on this machine; this one exercises
// the same download, verification, loading and timing code.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EngineVoice } from '../speech/voices.js';

export const TINY_HOP = 256;

const varint = (n: number | bigint): number[] => {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
};
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, n: number | bigint) => [...key(field, 0), ...varint(n)];
const bytes = (field: number, b: Uint8Array | number[]) => [...key(field, 2), ...varint(b.length), ...b];
const str = (field: number, s: string) => bytes(field, [...Buffer.from(s, 'utf8')]);
const msg = (field: number, parts: number[][]) => bytes(field, parts.flat());

const FLOAT = 1;
const INT64 = 7;

function tensor(name: string, type: number, dims: number[], raw: Buffer): number[][] {
  return [...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, [...raw])];
}
const floats = (xs: number[]) => Buffer.from(Float32Array.from(xs).buffer);
const int64s = (xs: number[]) => Buffer.from(BigInt64Array.from(xs, BigInt).buffer);

function valueInfo(field: number, name: string, type: number, dims: (number | string)[]): number[] {
  const shape = dims.map((d) => msg(1, [typeof d === 'number' ? int(1, d) : str(2, d)]));
  return msg(field, [str(1, name), msg(2, [msg(1, [int(1, type), msg(2, shape)])])]);
}

function node(op: string, inputs: string[], outputs: string[], attrs: { name: string; i: number }[] = []): number[] {
  return msg(1, [
    ...inputs.map((i) => str(1, i)),
    ...outputs.map((o) => str(2, o)),
    str(3, `${op}_${outputs[0]}`),
    str(4, op),
    ...attrs.map((a) => msg(5, [str(1, a.name), int(3, a.i), int(20, 2)])),
  ]);
}

/**
 * A tone model: input ids `input` [1, N] → `output` of N·HOP samples (rank 3 [1, 1, T] as Piper's,
 * or 2 [1, T] as Kokoro's); `unused` are further inputs the interface has.
 */
function toneModel(input: string, output: string, rank: 2 | 3, unused: number[][]): Buffer {
  const graph = [
    node('Cast', [input], ['ids'], [{ name: 'to', i: FLOAT }]),
    node('Reshape', ['ids', 'shape_col'], ['col']),
    node('Tile', ['col', 'repeats'], ['tiled']),
    node('Reshape', ['tiled', 'shape_out'], ['flat']),
    node('Mul', ['flat', 'step'], ['inc']),
    node('CumSum', ['inc', 'axis'], ['phase']),
    node('Sin', ['phase'], ['wave']),
    node('Mul', ['wave', 'amp'], [output]),
    str(2, 'tiny-tone'),
    msg(5, tensor('shape_col', INT64, [3], int64s([1, -1, 1]))),
    msg(5, tensor('repeats', INT64, [3], int64s([1, 1, TINY_HOP]))),
    msg(5, tensor('shape_out', INT64, [rank], int64s(rank === 3 ? [1, 1, -1] : [1, -1]))),
    msg(5, tensor('step', FLOAT, [1], floats([0.02]))),
    msg(5, tensor('axis', INT64, [], int64s([rank - 1]))),
    msg(5, tensor('amp', FLOAT, [1], floats([0.3]))),
    valueInfo(11, input, INT64, [1, 'phonemes']),
    ...unused,
    valueInfo(12, output, FLOAT, rank === 3 ? [1, 1, 'time'] : [1, 'time']),
  ];
  return Buffer.from([...int(1, 8), ...str(2, 'presenter-studio-tests'), ...msg(7, graph), ...msg(8, [str(1, ''), int(2, 14)])]);
}

export function tinyPiperModel(): Buffer {
  return toneModel('input', 'output', 3, [valueInfo(11, 'input_lengths', INT64, [1]), valueInfo(11, 'scales', FLOAT, [3])]);
}

/** A model with Kokoro's interface: `input_ids` int64 [1, N], `style` float [1, 256], `speed` float [1] → `waveform` [1, T]. */
export function tinyKokoroModel(): Buffer {
  return toneModel('input_ids', 'waveform', 2, [valueInfo(11, 'style', FLOAT, [1, 256]), valueInfo(11, 'speed', FLOAT, [1])]);
}

/**
 * Kokoro's tokenizer.json as published (onnx-community/Kokoro-82M-v1.0-ONNX): the vocabulary of
 * its config (hexgrad/Kokoro-82M), "$" the pad. Only `model.vocab` is read.
 */
export function kokoroTokenizer(): Buffer {
  const symbols: [string, number][] = [
    ['$', 0], [';', 1], [':', 2], [',', 3], ['.', 4], ['!', 5], ['?', 6], ['—', 9], ['…', 10], ['"', 11], ['(', 12], [')', 13], ['“', 14], ['”', 15], [' ', 16], ['\u0303', 17],
    ['ʣ', 18], ['ʥ', 19], ['ʦ', 20], ['ʨ', 21], ['ᵝ', 22], ['ꭧ', 23], ['A', 24], ['I', 25], ['O', 31], ['Q', 33], ['S', 35], ['T', 36], ['W', 39], ['Y', 41], ['ᵊ', 42],
    ...Array.from('abcdefhijklmnopqrstuvwxyz').map((c, i): [string, number] => [c, c < 'g' ? 43 + i : 44 + i]),
    ['ɑ', 69], ['ɐ', 70], ['ɒ', 71], ['æ', 72], ['β', 75], ['ɔ', 76], ['ɕ', 77], ['ç', 78], ['ɖ', 80], ['ð', 81], ['ʤ', 82], ['ə', 83], ['ɚ', 85], ['ɛ', 86], ['ɜ', 87],
    ['ɟ', 90], ['ɡ', 92], ['ɥ', 99], ['ɨ', 101], ['ɪ', 102], ['ʝ', 103], ['ɯ', 110], ['ɰ', 111], ['ŋ', 112], ['ɳ', 113], ['ɲ', 114], ['ɴ', 115], ['ø', 116], ['ɸ', 118],
    ['θ', 119], ['œ', 120], ['ɹ', 123], ['ɾ', 125], ['ɻ', 126], ['ʁ', 128], ['ɽ', 129], ['ʂ', 130], ['ʃ', 131], ['ʈ', 132], ['ʧ', 133], ['ʊ', 135], ['ʋ', 136], ['ʌ', 138],
    ['ɣ', 139], ['ɤ', 140], ['χ', 142], ['ʎ', 143], ['ʒ', 147], ['ʔ', 148], ['ˈ', 156], ['ˌ', 157], ['ː', 158], ['ʰ', 162], ['ʲ', 164], ['↓', 169], ['→', 171], ['↗', 172],
    ['↘', 173], ['ᵻ', 177],
  ];
  return Buffer.from(JSON.stringify({ version: '1.0', normalizer: null, model: { vocab: Object.fromEntries(symbols) } }));
}

/** Style vectors as a Kokoro voice has them: 510 rows of 256 floats. */
export function tinyKokoroStyles(): Buffer {
  return Buffer.from(Float32Array.from({ length: 510 * 256 }, (_, i) => Math.sin(i) / 10).buffer);
}

/** A Piper config for the tiny model: every IPA symbol espeak uses gets an id. */
export function tinyPiperConfig(): Buffer {
  const symbols = ['_', '^', '$', ' ', ',', '.', ...Array.from('abcdefghijklmnopqrstuvwxyzæçðøħŋœǀǁǂǃɐɑɒɓɔɕɖɗɘəɚɛɜɞɟɠɡɢɣɤɥɦɧɨɪɫɬɭɮɯɰɱɲɳɴɵɶɸɹɺɻɽɾʀʁʂʃʄʈʉʊʋʌʍʎʏʐʑʒʔʕʘʙʛʜʝʟʡʢʲˈˌːˑ̩̃θχ')];
  const map = Object.fromEntries(symbols.map((s, i) => [s, [i]]));
  return Buffer.from(JSON.stringify({ audio: { sample_rate: 22050 }, num_speakers: 1, inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 }, phoneme_id_map: map }));
}

/**
 * The tiny pack served over local HTTP as a real pack would be: `voice()` is a catalog entry
 * (voices.json shape) whose files point at it, with their real sizes and SHA-256. Every request
 * is logged; `corrupt` flips each byte's lowest bit (same size, other hash).
 */
export async function servePiperPack(): Promise<Served> {
  return serveFiles({ '/model.onnx': tinyPiperModel(), '/config.json': tinyPiperConfig() }, (files, base) => ({
    engine: 'piper',
    piper: { files: packFiles(files, base), licence: 'Test data, not a voice' },
  }));
}

/** Two Kokoro voices' packs (one model and tokenizer, a style file each) served as Piper's are. */
export async function serveKokoroPack(): Promise<Served> {
  const styles = tinyKokoroStyles();
  const other = Buffer.from(styles.map((b, i) => (i % 4 === 3 ? b : b ^ 1)));
  return serveFiles({ '/model.onnx': tinyKokoroModel(), '/tokenizer.json': kokoroTokenizer(), '/a.bin': styles, '/b.bin': other }, (files, base, id) => ({
    engine: 'kokoro',
    kokoro: {
      files: packFiles(files, base)
        .filter((f) => !f.name.endsWith('.bin') || f.name === (id.endsWith('B') ? 'b.bin' : 'a.bin'))
        .map((f) => (f.name.endsWith('.bin') ? { ...f, name: 'voice.bin' } : f)),
      licence: 'Test data, not a voice',
    },
  }));
}

const packFiles = (files: Record<string, Buffer>, base: string) =>
  Object.entries(files).map(([path, b]) => ({ name: path.slice(1), url: `${base}${path}`, bytes: b.length, sha256: createHash('sha256').update(b).digest('hex') }));

type Served = {
  base: string;
  requests: string[];
  corrupt: boolean;
  voice(id: string, numericId: string, name: string): EngineVoice;
  close(): void;
};

async function serveFiles(files: Record<string, Buffer>, engineBlock: (files: Record<string, Buffer>, base: string, id: string) => Pick<EngineVoice, 'engine' | 'piper' | 'kokoro'>): Promise<Served> {
  const pack = {
    base: '',
    requests: [] as string[],
    corrupt: false,
    voice: (id: string, numericId: string, name: string): EngineVoice => ({
      id, numericId, name, locale: 'en-US', gender: 'female', quality: 'natural',
      espeak: { voice: 'en-us', variant: 'f3', pitch: 55, rate: 165 },
      ...engineBlock(files, pack.base, id),
    }),
    close: () => server.close(),
  };
  const server = createServer((req, res) => {
    pack.requests.push(req.url!);
    const body = files[req.url!];
    if (!body) return void res.writeHead(404).end();
    const out = pack.corrupt ? Buffer.from(body.map((b) => b ^ 1)) : body;
    res.writeHead(200, { 'content-length': out.length });
    // In pieces, as a real download arrives.
    for (let i = 0; i < out.length; i += 64) res.write(out.subarray(i, i + 64));
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  pack.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return pack;
}
