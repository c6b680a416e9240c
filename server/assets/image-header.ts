// An image's size from its header alone, so a decompression bomb (a small file that decodes to
// gigapixels) is refused before any decoder allocates its pixels.
import { open } from 'node:fs/promises';

/** How much of the file is read to find the size (a JPEG's metadata segments come first). */
const HEAD_BYTES = 1 << 20;

export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** Width and height as the header states them, or null when the header cannot be read. */
export async function imageHeaderSize(path: string, format: ImageFormat): Promise<{ width: number; height: number } | null> {
  const f = await open(path, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await f.read(buf, 0, HEAD_BYTES, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
  const size = format === 'png' ? pngSize(head) : format === 'jpeg' ? jpegSize(head) : webpSize(head);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function pngSize(b: Buffer) {
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function jpegSize(b: Buffer) {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) { i++; continue; } // fill byte
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { i += 2; continue; } // no length
    const len = b.readUInt16BE(i + 2);
    // Start of frame (any kind but DHT, JPG and DAC, which share the range).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    }
    if (marker === 0xda || len < 2) return null; // image data before any frame header
    i += 2 + len;
  }
  return null;
}

function webpSize(b: Buffer) {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return null;
}

/** How far from the end an image's end marker may sit (some writers append a little data after it). */
const TAIL_BYTES = 64 * 1024;

/**
 * Whether the file holds the whole image: a PNG's IEND chunk, a JPEG's end-of-image marker, a
 * WebP's RIFF length. Skia decodes a cut-off image without complaint (the rest left blank), so
 * this is what tells a truncated upload.
 */
export async function imageComplete(path: string, format: ImageFormat): Promise<boolean> {
  const f = await open(path, 'r');
  try {
    const { size } = await f.stat();
    if (format === 'webp') {
      const head = Buffer.alloc(8);
      await f.read(head, 0, 8, 0);
      return head.readUInt32LE(4) + 8 <= size;
    }
    const n = Math.min(size, TAIL_BYTES);
    const tail = Buffer.alloc(n);
    await f.read(tail, 0, n, size - n);
    return format === 'png' ? tail.includes('IEND', 0, 'latin1') : tail.includes(Buffer.from([0xff, 0xd9]));
  } finally {
    await f.close();
  }
}
