// The characters a font file maps to glyphs (its `cmap`, formats 4 and 12), read straight from
// the file: what a bundled font covers, whatever fonts the test machine has installed.
import { readFileSync } from 'node:fs';

export function fontCodePoints(file: string): Set<number> {
  const b = readFileSync(file);
  const tables = b.readUInt16BE(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const rec = 12 + 16 * i;
    if (b.toString('latin1', rec, rec + 4) === 'cmap') cmap = b.readUInt32BE(rec + 8);
  }
  if (cmap < 0) throw new Error(`${file}: no cmap`);
  const out = new Set<number>();
  const subtables = b.readUInt16BE(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const st = cmap + b.readUInt32BE(cmap + 4 + 8 * i + 4);
    const format = b.readUInt16BE(st);
    if (format === 4) {
      const segX2 = b.readUInt16BE(st + 6);
      const ends = st + 14;
      const starts = ends + segX2 + 2;
      const deltas = starts + segX2;
      const offsets = deltas + segX2;
      for (let s = 0; s < segX2 / 2; s++) {
        const end = b.readUInt16BE(ends + 2 * s);
        const start = b.readUInt16BE(starts + 2 * s);
        const delta = b.readInt16BE(deltas + 2 * s);
        const roff = b.readUInt16BE(offsets + 2 * s);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          const glyph = roff === 0 ? (c + delta) & 0xffff : b.readUInt16BE(offsets + 2 * s + roff + 2 * (c - start));
          if (glyph !== 0) out.add(c);
        }
      }
    } else if (format === 12) {
      const groups = b.readUInt32BE(st + 12);
      for (let g = 0; g < groups; g++) {
        const o = st + 16 + 12 * g;
        for (let c = b.readUInt32BE(o); c <= b.readUInt32BE(o + 4); c++) out.add(c);
      }
    }
  }
  return out;
}
