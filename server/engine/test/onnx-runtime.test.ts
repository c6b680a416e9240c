// The neural voices' runtime where the app does not carry it: downloaded once from its npm
// tarballs (size and SHA-256 checked), only this platform's CPU runtime unpacked, loaded from the
// cache (it runs a model), never fetched again; a tampered download is refused and leaves nothing.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOnnxRuntime, ONNX_RUNTIME, runtimeFile } from '../speech/onnx-runtime.js';
import { LEFT_OUT, serveOnnxRuntime } from './onnx-runtime-source.js';
import { tinyPiperModel } from './tiny-onnx.js';

const version = (pkg: string) => (JSON.parse(readFileSync(join(import.meta.dirname, '../../../node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

describe('onnxruntime downloaded on first use', () => {
  let served: Awaited<ReturnType<typeof serveOnnxRuntime>>;
  const root = mkdtempSync(join(tmpdir(), 'ort-cache-'));
  beforeAll(async () => {
    served = await serveOnnxRuntime();
  });
  afterAll(() => {
    served.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('pins the release the app is built and tested with', () => {
    expect(ONNX_RUNTIME.version).toBe(version('onnxruntime-node'));
    expect(ONNX_RUNTIME.packages.map((p) => p.file.name)).toEqual([`onnxruntime-node-${version('onnxruntime-node')}.tgz`, `onnxruntime-common-${version('onnxruntime-common')}.tgz`]);
  });

  it('unpacks the manifest, the JavaScript and this OS and CPU\'s CPU runtime only', () => {
    const keep = (path: string, platform = 'linux', arch = 'x64') => runtimeFile('onnxruntime-node', `package/${path}`, platform, arch);
    expect(keep('package.json')).toBe('package.json');
    expect(keep('dist/binding.js')).toBe('dist/binding.js');
    expect(keep('bin/napi-v6/linux/x64/libonnxruntime.so.1')).toBe('bin/napi-v6/linux/x64/libonnxruntime.so.1');
    expect(keep('bin/napi-v6/win32/x64/onnxruntime.dll', 'win32')).toBe('bin/napi-v6/win32/x64/onnxruntime.dll');
    expect(keep('bin/napi-v6/darwin/arm64/libonnxruntime.1.dylib', 'darwin', 'arm64')).toBe('bin/napi-v6/darwin/arm64/libonnxruntime.1.dylib');
    for (const [path, platform, arch] of [
      ['bin/napi-v6/linux/arm64/libonnxruntime.so.1', 'linux', 'x64'],
      ['bin/napi-v6/win32/x64/onnxruntime.dll', 'linux', 'x64'],
      ['bin/napi-v6/linux/x64/libonnxruntime_providers_cuda.so', 'linux', 'x64'],
      ['bin/napi-v6/win32/x64/DirectML.dll', 'win32', 'x64'],
      ['bin/napi-v6/darwin/arm64/libonnxruntime.1.30.0.dylib', 'darwin', 'arm64'],
      ['script/install.js', 'linux', 'x64'],
      ['dist/binding.js.map', 'linux', 'x64'],
      ['../../etc/passwd', 'linux', 'x64'],
    ] as const) {
      expect(keep(path, platform, arch), path).toBeNull();
    }
    expect(runtimeFile('onnxruntime-common', 'package/dist/cjs/index.js')).toBe('dist/cjs/index.js');
    expect(runtimeFile('onnxruntime-common', 'package/dist/esm/index.js')).toBeNull();
  });

  it('refuses a tampered download, saying so, and keeps nothing of it', async () => {
    served.corrupt = true;
    const dir = join(root, 'bad');
    await expect(fetchOnnxRuntime(dir, served.source)).rejects.toThrow(/could not be installed: onnxruntime-node-.*\.tgz does not match its SHA-256/);
    expect(readdirSync(dir)).toEqual([]);
    served.corrupt = false;
  });

  it('downloads once, runs a model on the runtime it unpacked, and loads it from the cache afterwards', async () => {
    served.requests.length = 0;
    const dir = join(root, 'good');
    const ort = await fetchOnnxRuntime(dir, served.source);
    expect(served.requests).toEqual(['/onnxruntime-node.tgz', '/onnxruntime-common.tgz']);
    const home = join(dir, `onnxruntime-${served.source.version}-${process.platform}-${process.arch}`);
    expect(readdirSync(dir)).toEqual([`onnxruntime-${served.source.version}-${process.platform}-${process.arch}`]); // the tarballs are gone
    const unpacked = readdirSync(join(home, 'node_modules/onnxruntime-node'), { recursive: true }).map(String);
    for (const f of LEFT_OUT) expect(unpacked).not.toContain(f);
    expect(unpacked).toContain(`bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`);

    const session = await ort.InferenceSession.create(tinyPiperModel());
    const out = await session.run({
      input: new ort.Tensor('int64', BigInt64Array.of(1n, 2n, 3n), [1, 3]),
      input_lengths: new ort.Tensor('int64', BigInt64Array.of(3n), [1]),
      scales: new ort.Tensor('float32', Float32Array.of(0.667, 1, 0.8), [3]),
    });
    expect((out.output!.data as Float32Array).length).toBe(3 * 256);
    await session.release();
    // The native runtime this process runs is the unpacked one.
    const maps = readFileSync('/proc/self/maps', 'utf8');
    expect(maps).toContain(join(home, `node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node`));

    served.requests.length = 0;
    await fetchOnnxRuntime(dir, served.source);
    expect(served.requests).toEqual([]);
  });
});
