// The saved copy of a voice's WebAssembly memory: it gives back exactly the bytes it saved
// (zeroing what was written since, also in memory grown since), and holds only the pages that
// are not all zero.
import { describe, expect, it } from 'vitest';
import { restoreMemory, saveMemory, savedBytes } from '../speech/memory-snapshot.mjs';

function memory(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  // Used pages with zero pages between them, a lone byte in an otherwise empty page, the last bytes.
  bytes.fill(7, 0, 5000);
  bytes.fill(9, 20_000, 30_123);
  bytes[50_001] = 1;
  bytes[length - 1] = 3;
  return bytes;
}

describe('a saved WebAssembly memory', () => {
  it('restores what it saved and zeroes what was written since', () => {
    const bytes = memory(80_003);
    const original = bytes.slice();
    const saved = saveMemory(bytes);
    for (let i = 0; i < bytes.length; i += 97) bytes[i] = (i % 251) + 1;
    restoreMemory(bytes, saved);
    expect(Buffer.from(bytes).equals(Buffer.from(original))).toBe(true);
  });

  it('zeroes memory grown past the copy', () => {
    const saved = saveMemory(memory(65_536));
    const grown = new Uint8Array(131_072).fill(5);
    restoreMemory(grown, saved);
    expect(Buffer.from(grown.subarray(0, 65_536)).equals(Buffer.from(memory(65_536)))).toBe(true);
    expect(grown.subarray(65_536).every((b) => b === 0)).toBe(true);
  });

  it('keeps only the pages that hold something', () => {
    const saved = saveMemory(memory(1 << 20));
    expect(saved.length).toBe(1 << 20);
    // Pages 0–1, 4–7, 12 and the last of 256 pages of 4 KiB.
    expect(savedBytes(saved)).toBe(8 * 4096);
  });
});
