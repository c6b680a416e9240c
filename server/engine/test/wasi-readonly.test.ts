// The WASI file system espeak-ng reads its data through: read-only, and nothing outside its folder.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOnlyWasi } from '../speech/wasi-readonly.mjs';
import { packBytes, PACKED_SUFFIX } from '../../packed-file.mjs';
import { loadEspeak } from '../speech/espeak-wasm.mjs';

/** Calls path_open(fd 3, path) the way wasi-libc does; returns [errno, fd]. */
function open(root: string, path: string, oflags = 0): [number, number] {
  const wasi = readOnlyWasi(root, '/data');
  const memory = new WebAssembly.Memory({ initial: 1 });
  wasi.bind({ exports: { memory } });
  const bytes = Buffer.from(path);
  new Uint8Array(memory.buffer).set(bytes, 64);
  const calls = wasi.imports.wasi_snapshot_preview1;
  const errno = calls.path_open!(3, 0, 64, bytes.length, oflags, 0n, 0n, 0, 8);
  return [errno, new DataView(memory.buffer).getUint32(8, true)];
}

describe('the read-only WASI file system', () => {
  const outside = mkdtempSync(join(tmpdir(), 'wasi-'));
  const root = join(outside, 'root');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'sub', 'a.txt'), 'inside');
  writeFileSync(join(root, 'back\\slash.txt'), 'a file name with a backslash (Linux)');
  writeFileSync(join(root, 'C:drive.txt'), 'a file name with a colon (Linux)');
  writeFileSync(join(outside, 'secret.txt'), 'outside');

  it('opens files inside its folder and refuses paths that climb out of it', () => {
    expect(open(root, 'sub/a.txt')[0]).toBe(0);
    expect(open(root, 'sub/../sub/a.txt')[0]).toBe(0);
    expect(open(root, '../secret.txt')[0]).toBe(44); // ENOENT
    expect(open(root, 'sub/../../secret.txt')[0]).toBe(44);
    // A backslash or a drive colon is refused even where it is an ordinary character (here): on
    // Windows it would be a separator, and 'sub\..\..\secret.txt' would climb out.
    expect(open(root, 'back\\slash.txt')[0]).toBe(44);
    expect(open(root, 'C:drive.txt')[0]).toBe(44);
  });

  it('sees, lists and reads a file stored packed as the plain file (the packaged app\'s espeak-ng data)', () => {
    const dir = join(outside, 'packed');
    mkdirSync(dir);
    const original = Buffer.from('espeak data '.repeat(1000));
    writeFileSync(join(dir, `en_dict${PACKED_SUFFIX}`), packBytes(original));
    const wasi = readOnlyWasi(dir, '/data');
    const memory = new WebAssembly.Memory({ initial: 2 });
    wasi.bind({ exports: { memory } });
    const calls = wasi.imports.wasi_snapshot_preview1;
    const v = new DataView(memory.buffer);
    const name = Buffer.from('en_dict');
    new Uint8Array(memory.buffer).set(name, 64);
    expect(calls.path_filestat_get!(3, 0, 64, name.length, 128)).toBe(0);
    expect(v.getBigUint64(128 + 32, true)).toBe(BigInt(original.length));
    expect(calls.path_open!(3, 0, 64, name.length, 0, 0n, 0n, 0, 8)).toBe(0);
    const fd = v.getUint32(8, true);
    v.setUint32(16, 1024, true); // one iovec: 20 000 bytes at 1024
    v.setUint32(20, 20_000, true);
    expect(calls.fd_read!(fd, 16, 1, 24)).toBe(0);
    expect(Buffer.from(memory.buffer, 1024, v.getUint32(24, true)).equals(original)).toBe(true);
    // The folder lists it by its plain name.
    expect(calls.fd_readdir!(3, 4096, 4096, 0n, 24)).toBe(0);
    const listed = Buffer.from(memory.buffer, 4096, v.getUint32(24, true));
    expect(listed.subarray(24, 24 + listed.readUInt32LE(16)).toString()).toBe('en_dict');
  });

  it('refuses to create or truncate a file', () => {
    expect(open(root, 'sub/new.txt', 1 /* O_CREAT */)[0]).toBe(69); // EROFS
    expect(open(root, 'sub/a.txt', 8 /* O_TRUNC */)[0]).toBe(69);
  });

  it('keeps a file a command-line program writes in memory, never on disk, when asked to (Flite\'s WAV)', async () => {
    const { loadFlite } = await import('../speech/flite-wasm.mjs');
    const flite = await loadFlite();
    const { samples, sampleRate } = flite.synthesize('Hello there.', 'rms');
    expect(sampleRate).toBe(16000);
    expect(samples.length / sampleRate).toBeGreaterThan(0.5);
    const wasi = readOnlyWasi(root, '/data', { keepCreated: true });
    const memory = new WebAssembly.Memory({ initial: 1 });
    wasi.bind({ exports: { memory } });
    const path = Buffer.from('sub/out.wav');
    new Uint8Array(memory.buffer).set(path, 64);
    const calls = wasi.imports.wasi_snapshot_preview1;
    expect(calls.path_open!(3, 0, 64, path.length, 1 /* O_CREAT */, 0n, 0n, 0, 8)).toBe(0);
    const fd = new DataView(memory.buffer).getUint32(8, true);
    new Uint8Array(memory.buffer).set(Buffer.from('RIFF'), 128);
    new DataView(memory.buffer).setUint32(16, 128, true);
    new DataView(memory.buffer).setUint32(20, 4, true);
    expect(calls.fd_write!(fd, 16, 1, 24)).toBe(0);
    expect(wasi.created('sub/out.wav')?.toString()).toBe('RIFF');
    expect(readdirSync(join(root, 'sub'))).toEqual(['a.txt']);
  });

  it('lets espeak-ng speak an <audio src> that points outside its data without opening it', async () => {
    const opened: string[] = [];
    const espeak = await loadEspeak({ onOpen: (p: string) => opened.push(p) });
    await espeak.setVoice('en-us+f3', 175, 50);
    const r = await espeak.synthesize('Tickets <audio src="../../../../../../etc/hostname">cost ten dollars</audio> today.');
    expect(r.samples.length / r.sampleRate).toBeGreaterThan(1.5); // the content is spoken instead
    expect(opened.length).toBeGreaterThan(0);
    for (const p of opened) expect(p).toMatch(/^espeak-ng-data\//u);
  });
});
