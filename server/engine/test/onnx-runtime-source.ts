// onnxruntime's npm tarballs as the registry serves them, made here from the installed packages
// (the registry cannot be reached from every test machine): onnxruntime-node's manifest, its
// JavaScript and this OS and CPU's binaries, plus files the studio must leave out (another
// platform's runtime, a GPU provider, the install script), packed as npm packs (ustar, under
// `package/`) and served over local HTTP with their real sizes and SHA-256.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { OnnxRuntimeSource } from '../speech/onnx-runtime.js';

const MODULES = join(import.meta.dirname, '../../../node_modules');

/** Files a correct unpack leaves out, by their path inside onnxruntime-node's tarball. */
export const LEFT_OUT = ['bin/napi-v6/win32/x64/onnxruntime.dll', 'bin/napi-v6/linux/x64/libonnxruntime_providers_cuda.so', 'script/install.js', 'lib/index.ts'];

function pack(name: 'onnxruntime-node' | 'onnxruntime-common', work: string): Buffer {
  const stage = join(work, name, 'package');
  const from = join(MODULES, name);
  mkdirSync(stage, { recursive: true });
  cpSync(join(from, 'package.json'), join(stage, 'package.json'));
  cpSync(join(from, 'dist'), join(stage, 'dist'), { recursive: true });
  if (name === 'onnxruntime-node') {
    const bin = `bin/napi-v6/${process.platform}/${process.arch}`;
    cpSync(join(from, bin), join(stage, bin), { recursive: true });
    for (const f of LEFT_OUT) {
      mkdirSync(join(stage, f, '..'), { recursive: true });
      writeFileSync(join(stage, f), 'not for this platform or not needed');
    }
  }
  const tgz = join(work, `${name}.tgz`);
  execFileSync('tar', ['-c', '--format=ustar', '-I', 'gzip -1', '-f', tgz, '-C', join(work, name), 'package']);
  return readFileSync(tgz);
}

/** The installed onnxruntime's tarballs, served; `corrupt` flips a byte of every answer (same size, other hash). */
export async function serveOnnxRuntime(): Promise<{ source: OnnxRuntimeSource; requests: string[]; corrupt: boolean; close(): void }> {
  const work = mkdtempSync(join(tmpdir(), 'ort-tgz-'));
  const bodies: Record<string, Buffer> = {};
  try {
    for (const name of ['onnxruntime-node', 'onnxruntime-common'] as const) bodies[`/${name}.tgz`] = pack(name, work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const { version } = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(join(MODULES, 'onnxruntime-node/package.json'), 'utf8')));
  const served = {
    source: { version, packages: [] } as OnnxRuntimeSource,
    requests: [] as string[],
    corrupt: false,
    close: () => server.close(),
  };
  const server = createServer((req, res) => {
    served.requests.push(req.url!);
    const body = bodies[req.url!];
    if (!body) return void res.writeHead(404).end();
    const out = served.corrupt ? Buffer.concat([body.subarray(0, 100), Buffer.from([body[100]! ^ 1]), body.subarray(101)]) : body;
    res.writeHead(200, { 'content-length': out.length }).end(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served.source.packages = (['onnxruntime-node', 'onnxruntime-common'] as const).map((name) => {
    const b = bodies[`/${name}.tgz`]!;
    return { name, file: { name: `${name}-${version}.tgz`, url: `${base}/${name}.tgz`, bytes: b.length, sha256: createHash('sha256').update(b).digest('hex') } };
  });
  return served;
}
