// A minimal Matroska writer for one uncompressed video track at a variable frame rate: the
// engine sends a frame only when it differs from the one before, and ffmpeg (`-r 30`) repeats
// the last one for the frames in between. A still frame then crosses the pipe once instead of
// 30 times a second; moving bytes through the pipe is what a render spends most on otherwise.
// Elements are EBML (ID, size as a variable-length integer, payload); see the Matroska spec.

/** EBML variable-length size. */
function vsize(n: number): Buffer {
  for (let len = 1; len <= 8; len++) {
    if (n < 2 ** (7 * len) - 1) {
      const b = Buffer.alloc(len);
      let v = n;
      for (let i = len - 1; i >= 0; i--) {
        b[i] = v % 256;
        v = Math.floor(v / 256);
      }
      b[0]! |= 1 << (8 - len);
      return b;
    }
  }
  throw new RangeError(`EBML size too large: ${n}`);
}

function uint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  do {
    bytes.unshift(v % 256);
    v = Math.floor(v / 256);
  } while (v > 0);
  return Buffer.from(bytes);
}

/** An element with its payload. IDs are written as given (they already carry their length marker). */
function el(id: number, payload: Buffer | string | number | Buffer[]): Buffer {
  const body = Array.isArray(payload) ? Buffer.concat(payload) : typeof payload === 'number' ? uint(payload) : Buffer.from(payload);
  return Buffer.concat([uint(id), vsize(body.length), body]);
}

/** "Unknown size": the segment is streamed, its length is not known when it starts. */
const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

/**
 * The stream's header: EBML header, then an open Segment with Info (millisecond timestamps)
 * and one track of `fourcc` frames (I420 = yuv420p) of the given size.
 */
export function mkvHeader(width: number, height: number, fourcc = 'I420'): Buffer {
  const ebml = el(0x1a45dfa3, [
    el(0x4286, 1), el(0x42f7, 1), el(0x42f2, 4), el(0x42f3, 8), el(0x4282, 'matroska'), el(0x4287, 4), el(0x4285, 2),
  ]);
  const info = el(0x1549a966, [el(0x2ad7b1, 1_000_000), el(0x4d80, 'presenter-studio'), el(0x5741, 'presenter-studio')]);
  const video = el(0xe0, [el(0xb0, width), el(0xba, height), el(0x2eb524, Buffer.from(fourcc, 'latin1'))]);
  // DefaultDuration 1 ms: a frame lasts until the next one comes (the fps filter repeats it),
  // and the last one (the engine's end marker) ends the stream right where it starts.
  const track = el(0xae, [el(0xd7, 1), el(0x73c5, 1), el(0x83, 1), el(0x86, 'V_UNCOMPRESSED'), el(0x9c, 0), el(0x23e383, 1_000_000), video]);
  const tracks = el(0x1654ae6b, [track]);
  return Buffer.concat([ebml, uint(0x18538067), UNKNOWN_SIZE, info, tracks]);
}

/** Bytes of vsize(n). */
function vsizeLength(n: number): number {
  let len = 1;
  while (n >= 2 ** (7 * len) - 1) len++;
  return len;
}

/** Writes vsize(n) at `o` in `b`; returns the offset after it. */
function putVsize(b: Buffer, o: number, n: number): number {
  const len = vsizeLength(n);
  let v = n;
  for (let i = len - 1; i >= 0; i--) {
    b[o + i] = v % 256;
    v = Math.floor(v / 256);
  }
  b[o]! |= 1 << (8 - len);
  return o + len;
}

/** Bytes of uint(n). */
function uintLength(n: number): number {
  let len = 1;
  while (n >= 2 ** (8 * len)) len++;
  return len;
}

/**
 * The bytes that precede one frame at `ms` milliseconds: a Cluster holding one SimpleBlock
 * (track 1, keyframe). Write them, then the frame's `size` bytes, unchanged. Written straight
 * into one small Buffer: it is called for every frame sent.
 */
export function mkvFrameHeader(ms: number, size: number): Buffer {
  const t = Math.round(ms);
  const tLen = uintLength(t);
  // SimpleBlock payload: track number (vint 1), relative timestamp (int16 0), flags (keyframe), then the frame.
  const blockPayload = 4 + size;
  const timestamp = 1 + vsizeLength(tLen) + tLen;
  const block = 1 + vsizeLength(blockPayload) + 4;
  const cluster = timestamp + block + size;
  const b = Buffer.allocUnsafe(4 + vsizeLength(cluster) + timestamp + block);
  let o = b.writeUInt32BE(0x1f43b675, 0);
  o = putVsize(b, o, cluster);
  b[o++] = 0xe7;
  o = putVsize(b, o, tLen);
  for (let i = tLen - 1, v = t; i >= 0; i--, v = Math.floor(v / 256)) b[o + i] = v % 256;
  o += tLen;
  b[o++] = 0xa3;
  o = putVsize(b, o, blockPayload);
  b[o++] = 0x81;
  b[o++] = 0x00;
  b[o++] = 0x00;
  b[o] = 0x80;
  return b;
}
