// The release check that runs in electron-builder's afterPack: real N-API modules from
// node_modules pass; a module built for one Node ABI, for another OS or CPU, onnxruntime, a
// bundled ffmpeg on Linux (or none elsewhere) and every kind of file that must not ship are
// refused with a line naming the file.
import { describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkPayload, nativeModuleProblem, SYSTEM_FFMPEG } from '../build/payload-check.mjs';
import { ROOT, tempDir } from './helpers.js';

const target = { platform: 'linux', arch: 'x64', abi: 145, electronVersion: '41.7.1' };

/** A minimal ELF header for x86-64 (or another machine) followed by some symbol names. */
function elf(machine: number, symbols: string): Buffer {
  const head = Buffer.alloc(64);
  head.writeUInt32BE(0x7f454c46, 0);
  head.writeUInt16LE(machine, 18);
  return Buffer.concat([head, Buffer.from(`\0${symbols}\0`)]);
}

function app(files: Record<string, string | Buffer>): string {
  const dir = tempDir('ps-payload-');
  const all = { 'server/cli.js': '', 'dist/renderer/index.html': '', ...files };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe('packaged native modules', () => {
  it('accepts the N-API modules the app ships (keytar, Skia, SQLite)', () => {
    for (const f of [
      'node_modules/keytar/build/Release/keytar.node',
      'node_modules/@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node',
      'node_modules/@photostructure/sqlite/prebuilds/linux-x64/@photostructure+sqlite.glibc.node',
    ]) {
      expect(nativeModuleProblem(join(ROOT, f), target), f).toBeNull();
    }
  });

  it('refuses a module built for Node 20 (ABI 115) when Electron needs 145', () => {
    const dir = app({ 'node_modules/sqlite/build/Release/sqlite.node': elf(0x3e, 'node_register_module_v115') });
    expect(checkPayload(dir, target).problems).toEqual([
      'node_modules/sqlite/build/Release/sqlite.node: would not load in Electron 41.7.1 on linux-x64: built for Node ABI 115, the target Electron needs 145 (not N-API)',
    ]);
  });

  it('refuses a shared library for another CPU', () => {
    const dir = app({ 'node_modules/sharp/lib/linux-arm64/libvips.so.42': elf(0xb7, '') });
    expect(checkPayload(dir, target).problems).toEqual([
      'node_modules/sharp/lib/linux-arm64/libvips.so.42: a file for linux-arm64 must not ship for linux-x64',
      'node_modules/sharp/lib/linux-arm64/libvips.so.42: a library for linux-arm64 cannot load on linux-x64',
    ]);
  });

  it('refuses a bundled ffmpeg on Linux (the system\'s is used there) and an app without one elsewhere', () => {
    const linux = app({ 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg': elf(0x3e, '') });
    chmodSync(join(linux, 'node_modules/@ffmpeg-installer/linux-x64/ffmpeg'), 0o755);
    expect(checkPayload(linux, target).problems).toEqual([
      'node_modules/@ffmpeg-installer/linux-x64/ffmpeg: ffmpeg is the system\'s on linux (a dependency of the package), a bundled one must not ship',
    ]);
    expect(checkPayload(app({}), target).problems).toEqual([]);
    const mac = { ...target, platform: 'darwin', arch: 'arm64' };
    expect(checkPayload(app({}), mac).problems).toEqual(['node_modules/@ffmpeg-installer/darwin-arm64/ffmpeg is missing: the local studio cannot encode']);
  });

  it('has the deb depend on the ffmpeg that Linux packages do not carry', () => {
    expect(SYSTEM_FFMPEG).toEqual(['linux']);
    const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
    // The deb: section, up to the next top-level key; its depends list one package a line.
    const deb = /^deb:\n((?:[ #].*\n|\n)*)/m.exec(yml)?.[1] ?? '';
    const depends = /^ {2}depends:\n((?: {4}- .*\n)+)/m.exec(deb)?.[1]?.split('\n').map((l) => l.replace(/^ {4}- /, '').trim()).filter(Boolean);
    expect(depends).toContain('ffmpeg');
  });

  it('refuses onnxruntime in the app, for any platform (the studio downloads it with the first neural voice)', () => {
    const dir = app({
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node': elf(0x3e, 'napi_register_module_v1'),
      'node_modules/onnxruntime-common/dist/cjs/index.js': '',
    });
    expect(checkPayload(dir, target).problems).toEqual([
      'node_modules/onnxruntime-common/dist/cjs/index.js: onnxruntime (the studio downloads it with the first neural voice: server/engine/speech/onnx-runtime.ts) must not ship',
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node: onnxruntime (the studio downloads it with the first neural voice: server/engine/speech/onnx-runtime.ts) must not ship',
    ]);
  });

  it('refuses a module for another CPU or OS', () => {
    const arm = app({ 'node_modules/a/a.node': elf(0xb7, 'napi_register_module_v1') });
    expect(checkPayload(arm, target).problems[0]).toContain('built for arm64, not x64');
    const dir = app({});
    copyFileSync(join(ROOT, 'node_modules/keytar/build/Release/keytar.node'), join(dir, 'k.node'));
    expect(checkPayload(dir, { ...target, platform: 'win32' }).problems[0]).toContain('built for linux, not win32');
  });

  it('refuses an executable for another OS or CPU, another platform\'s package and a second copy of a module', () => {
    const macho = Buffer.alloc(64);
    macho.writeUInt32LE(0xfeedfacf, 0);
    macho.writeUInt32LE(0x0100000c, 4);
    const napi = elf(0x3e, 'napi_register_module_v1');
    const dir = app({
      'node_modules/tool/bin/ffmpeg': macho,
      'node_modules/@ffmpeg-installer/win32-x64/package.json': '{}',
      'node_modules/a/libhelper.so': elf(0x3e, ''),
      'node_modules/a/skia.node': napi,
      'node_modules/b/node_modules/a/skia.node': napi,
    });
    chmodSync(join(dir, 'node_modules/tool/bin/ffmpeg'), 0o755);
    const { problems, binaries } = checkPayload(dir, target);
    expect([...problems].sort()).toEqual([
      'node_modules/@ffmpeg-installer/win32-x64/package.json: a file for win32-x64 must not ship for linux-x64',
      'node_modules/@ffmpeg-installer/win32-x64/package.json: ffmpeg is the system\'s on linux (a dependency of the package), a bundled one must not ship',
      'skia.node: 2 copies ship (node_modules/a/skia.node, node_modules/b/node_modules/a/skia.node), the app loads one',
      'node_modules/tool/bin/ffmpeg: an executable for darwin-arm64 cannot run on linux-x64',
    ].sort());
    expect(binaries.map((b) => `${b.kind} ${b.os}-${b.arch}`).sort()).toEqual(['executable darwin-arm64', 'library linux-x64', 'module linux-x64', 'module linux-x64']);
  });

  it('refuses source maps, tests, TypeScript sources, build leftovers and renderer libraries', () => {
    const dir = app({
      'dist/renderer/assets/index.js.map': '{}',
      'node_modules/zod/src/v4/tests/a.test.ts': '',
      'node_modules/keytar/build/Release/keytar.node': elf(0x3e, 'napi_register_module_v1'),
      'node_modules/keytar/build/Release/obj.target/keytar/src/keytar.o': '',
      'node_modules/keytar/src/main.cc': '',
      'node_modules/react/index.js': '',
    });
    const problems = checkPayload(dir, target).problems.join('\n');
    expect(problems).toContain('dist/renderer/assets/index.js.map: a source map');
    expect(problems).toContain('node_modules/zod/src/v4/tests/a.test.ts: a test file');
    expect(problems).toContain('node_modules/keytar/build/Release/obj.target/keytar/src/keytar.o: a native build leftover');
    expect(problems).toContain('node_modules/keytar/src/main.cc: a native build leftover');
    expect(problems).toContain('node_modules/react/index.js: a library the renderer bundle already contains');
  });

  it('refuses an app without its local studio', () => {
    const dir = tempDir('ps-payload-');
    mkdirSync(join(dir, 'dist/renderer'), { recursive: true });
    writeFileSync(join(dir, 'dist/renderer/index.html'), '');
    expect(checkPayload(dir, target).problems).toEqual(['server/cli.js is missing: the local studio cannot start']);
  });
});
