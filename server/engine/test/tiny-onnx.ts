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

export function tinyPiperModel(): Buffer {
  const graph = [
    node('Cast', ['input'], ['ids'], [{ name: 'to', i: FLOAT }]),
    node('Reshape', ['ids', 'shape_col'], ['col']),
    node('Tile', ['col', 'repeats'], ['tiled']),
    node('Reshape', ['tiled', 'shape_out'], ['flat']),
    node('Mul', ['flat', 'step'], ['inc']),
    node('CumSum', ['inc', 'axis'], ['phase']),
    node('Sin', ['phase'], ['wave']),
    node('Mul', ['wave', 'amp'], ['output']),
    str(2, 'tiny-piper'),
    msg(5, tensor('shape_col', INT64, [3], int64s([1, -1, 1]))),
    msg(5, tensor('repeats', INT64, [3], int64s([1, 1, TINY_HOP]))),
    msg(5, tensor('shape_out', INT64, [3], int64s([1, 1, -1]))),
    msg(5, tensor('step', FLOAT, [1], floats([0.02]))),
    msg(5, tensor('axis', INT64, [], int64s([2]))),
    msg(5, tensor('amp', FLOAT, [1], floats([0.3]))),
    valueInfo(11, 'input', INT64, [1, 'phonemes']),
    valueInfo(11, 'input_lengths', INT64, [1]),
    valueInfo(11, 'scales', FLOAT, [3]),
    valueInfo(12, 'output', FLOAT, [1, 1, 'time']),
  ];
  return Buffer.from([...int(1, 8), ...str(2, 'presenter-studio-tests'), ...msg(7, graph), ...msg(8, [str(1, ''), int(2, 14)])]);
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
export async function servePiperPack(): Promise<{
  base: string;
  requests: string[];
  corrupt: boolean;
  voice(id: string, numericId: string, name: string): EngineVoice;
  close(): void;
}> {
  const files = { '/model.onnx': tinyPiperModel(), '/config.json': tinyPiperConfig() } as Record<string, Buffer>;
  const pack = {
    base: '',
    requests: [] as string[],
    corrupt: false,
    voice: (id: string, numericId: string, name: string): EngineVoice => ({
      id, numericId, name, locale: 'en-US', gender: 'female', engine: 'piper', quality: 'natural',
      espeak: { voice: 'en-us', variant: 'f3', pitch: 55, rate: 165 },
      piper: {
        files: Object.entries(files).map(([path, b]) => ({
          name: path.slice(1), url: `${pack.base}${path}`, bytes: b.length, sha256: createHash('sha256').update(b).digest('hex'),
        })),
        licence: 'Test data, not a voice',
      },
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
