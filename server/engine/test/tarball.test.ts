// The studio's .tgz reader (plain ustar is what onnx-runtime.test.ts unpacks): long names (pax
// and GNU, as tar writes them), only what the filter keeps, where it says; an entry that climbs
// out of the folder and a cut-off archive are refused.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { extractTarball } from '../speech/tarball.js';

const work = mkdtempSync(join(tmpdir(), 'tarball-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const LONG = `package/${'deep-folder-name/'.repeat(8)}file.js`;

/** A tree packed by the system's tar in the given format. */
function packed(format: 'pax' | 'gnu'): string {
  const src = join(work, `src-${format}`);
  const files: [string, string][] = [[LONG, 'long'], ['package/bin/tool', '#!/bin/sh\n'], ['package/skip.txt', 'no']];
  for (const [path, body] of files) {
    mkdirSync(join(src, path, '..'), { recursive: true });
    writeFileSync(join(src, path), body, { mode: path.endsWith('tool') ? 0o755 : 0o644 });
  }
  const tgz = join(work, `${format}.tgz`);
  execFileSync('tar', ['-czf', tgz, `--format=${format}`, '-C', src, 'package']);
  return tgz;
}

/** One ustar entry written by hand (tar will not write a name that climbs out). */
function entry(name: string, body: string): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 'utf8');
  h.write('0000644\0', 100);
  h.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  h.write('0', 156);
  h.write('ustar\0' + '00', 257);
  h.fill(' ', 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const data = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  data.write(body);
  return Buffer.concat([h, data]);
}

describe('extractTarball', () => {
  it.each(['pax', 'gnu'] as const)('unpacks what the filter keeps, where it says, long names too, from a %s archive', async (format) => {
    const dest = join(work, `out-${format}`);
    const written = await extractTarball(packed(format), dest, (p) => (p.endsWith('.txt') ? null : p.replace(/^package\//, '')));
    expect(written.sort()).toEqual(['bin/tool', LONG.replace(/^package\//, '')].sort());
    expect(readFileSync(join(dest, LONG.replace(/^package\//, '')), 'utf8')).toBe('long');
    expect(statSync(join(dest, 'bin/tool')).mode & 0o111).not.toBe(0);
    expect(readdirSync(dest).sort()).toEqual(['bin', 'deep-folder-name']);
  });

  it('refuses an entry that would land outside the folder', async () => {
    const tgz = join(work, 'evil.tgz');
    writeFileSync(tgz, gzipSync(Buffer.concat([entry('package/../../evil.txt', 'x'), Buffer.alloc(1024)])));
    await expect(extractTarball(tgz, join(work, 'out-evil'), (p) => p.replace(/^package\//, ''))).rejects.toThrow(/outside its folder: package\/\.\.\/\.\.\/evil\.txt/);
    expect(() => statSync(join(work, 'out-evil', '../../evil.txt'))).toThrow(/ENOENT/);
  });

  it('refuses an archive cut off in the middle of a file', async () => {
    const tgz = join(work, 'cut.tgz');
    writeFileSync(tgz, gzipSync(entry('package/a.js', 'x'.repeat(2000)).subarray(0, 1200)));
    await expect(extractTarball(tgz, join(work, 'out-cut'), (p) => p)).rejects.toThrow(/ends before its last file/);
  });
});
