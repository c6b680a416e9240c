// WebM (Matroska) files state their Segment's length in the header: a file cut off before that
// length is truncated. A live-written file may leave the length "unknown" (all ones): nothing
// to tell then, and the decode decides.
import { open } from 'node:fs/promises';

/** An EBML variable-length integer at `at`: its value and byte length (value null: "unknown"). */
function vint(b: Buffer, at: number, keepMarker: boolean): { value: number | null; length: number } | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23; // 1 + leading zero bits of the byte
  if (at + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i]!;
    if (b[at + i] !== 0xff) allOnes = false;
  }
  return { value: !keepMarker && allOnes ? null : value, length };
}

/** Whether the file holds all of its Segment (false: cut off). */
export async function matroskaComplete(path: string): Promise<boolean> {
  const f = await open(path, 'r');
  try {
    const { size } = await f.stat();
    const head = Buffer.alloc(4096);
    const { bytesRead } = await f.read(head, 0, head.length, 0);
    const b = head.subarray(0, bytesRead);
    let at = 0;
    for (const wanted of [0x1a45dfa3, 0x18538067]) { // the EBML header, then the Segment
      const id = vint(b, at, true);
      const len = id && vint(b, at + id.length, false);
      if (!id || !len || id.value !== wanted) return false;
      at += id.length + len.length;
      if (wanted === 0x18538067) return len.value === null || at + len.value <= size;
      if (len.value === null) return false;
      at += len.value;
    }
    return false;
  } finally {
    await f.close();
  }
}
