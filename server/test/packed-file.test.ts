// A file the packaged app stores compressed reads back as the original; a checkout's plain file wins.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packBytes, PACKED_SUFFIX, readPackedFile, readPackedFileSync } from '../packed-file.mjs';

describe('readPackedFile', () => {
  it('reads the plain file, else its packed form, else fails as a missing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-packed-'));
    try {
      const original = Buffer.concat([randomBytes(4096), Buffer.alloc(1 << 20, 7)]);
      const path = join(dir, 'module.wasm');
      const packed = packBytes(original);
      expect(packed.length).toBeLessThan(original.length / 10);
      writeFileSync(path + PACKED_SUFFIX, packed);
      expect((await readPackedFile(path)).equals(original)).toBe(true);
      expect(readPackedFileSync(path).equals(original)).toBe(true);
      writeFileSync(path, 'plain');
      expect((await readPackedFile(path)).toString()).toBe('plain');
      expect(readPackedFileSync(path).toString()).toBe('plain');
      await expect(readPackedFile(join(dir, 'absent.wasm'))).rejects.toMatchObject({ code: 'ENOENT' });
      expect(() => readPackedFileSync(join(dir, 'absent.wasm'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
