// onnxruntime (the neural voices' model runner) is not packaged with the app: its native library
// is the largest part of it and only creators who choose a neural voice need it. Where the
// onnxruntime-node package is installed (a checkout, `npm install`) it is used as is; otherwise
// its npm tarballs are downloaded once, by the verified download of the voice packs (size and
// SHA-256 pinned here), and only this OS and CPU's CPU runtime is unpacked next to the voice
// packs, where it is loaded from then on, offline too.
import { createRequire } from 'node:module';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { EngineError } from '../types.js';
import { extractTarball } from './tarball.js';
import { download } from './voice-packs.js';
import type { PackFile } from './voices.js';

export type OnnxRuntime = typeof Ort;

/** The packages to fetch, each an npm tarball; onnxruntime-node's JavaScript requires onnxruntime-common. */
export interface OnnxRuntimeSource {
  version: string;
  packages: { name: 'onnxruntime-node' | 'onnxruntime-common'; file: PackFile }[];
}

/** The release the app is built and tested with (package.json's onnxruntime-node; a test keeps them equal). */
export const ONNX_RUNTIME: OnnxRuntimeSource = {
  version: '1.30.0',
  packages: [
    {
      name: 'onnxruntime-node',
      file: {
        name: 'onnxruntime-node-1.30.0.tgz',
        url: 'https://registry.npmjs.org/onnxruntime-node/-/onnxruntime-node-1.30.0.tgz',
        bytes: 113_507_888,
        sha256: '6e3390d6b783e7be946fad629292799da28d0b42f84856e50d2c1b0383291e75',
      },
    },
    {
      name: 'onnxruntime-common',
      file: {
        name: 'onnxruntime-common-1.30.0.tgz',
        url: 'https://registry.npmjs.org/onnxruntime-common/-/onnxruntime-common-1.30.0.tgz',
        bytes: 66_795,
        sha256: '7906c439e0d3e0f4048caa23b64cdfadc0f455c377f579ce1ab2a4b778f07d5f',
      },
    },
  ],
};

/** GPU execution providers (CUDA, TensorRT, DirectML) and a second, fully versioned macOS runtime: never loaded on the CPU. */
const NOT_CPU = /(^|\/)(lib)?onnxruntime_providers_|(^|\/)(DirectML|dxcompiler|dxil)\.dll$|libonnxruntime\.\d+\.\d+\.\d+\.dylib$/i;

/** What of a package's tarball the runtime needs: its manifest, its JavaScript, this platform's CPU binaries. */
export function runtimeFile(pkg: string, path: string, platform: string = process.platform, arch: string = process.arch): string | null {
  const inner = path.replace(/^package\//, '');
  if (inner === path) return null;
  if (inner === 'package.json') return inner;
  if (pkg === 'onnxruntime-common') return /^dist\/cjs\/[^/]+\.js$|^dist\/cjs\/package\.json$/.test(inner) ? inner : null;
  if (/^dist\/[^/]+\.js$/.test(inner)) return inner;
  return inner.startsWith(`bin/napi-v6/${platform}/${arch}/`) && !NOT_CPU.test(inner) ? inner : null;
}

const loads = new Map<string, Promise<OnnxRuntime>>();

/**
 * onnxruntime-node: the installed package where there is one, else the copy under `dir`
 * (downloaded first when missing). One load per folder at a time; a failure is tried again next call.
 */
export function loadOnnxRuntime(dir: string, source: OnnxRuntimeSource = ONNX_RUNTIME): Promise<OnnxRuntime> {
  let p = loads.get(dir);
  if (!p) {
    p = installed().then((ort) => ort ?? fetchOnnxRuntime(dir, source));
    loads.set(dir, p);
    p.catch(() => loads.delete(dir)); // reported to the caller; the next call tries again
  }
  return p;
}

/** The installed onnxruntime-node, or null when the package is not there (the packaged app). */
async function installed(): Promise<OnnxRuntime | null> {
  try {
    return await import('onnxruntime-node');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return null;
    throw e;
  }
}

/** The runtime from `dir`, downloading and unpacking it there first when it is not there yet. */
export async function fetchOnnxRuntime(dir: string, source: OnnxRuntimeSource = ONNX_RUNTIME): Promise<OnnxRuntime> {
  // A folder per release, OS and CPU, renamed into place whole: one that exists is complete.
  const home = join(dir, `onnxruntime-${source.version}-${process.platform}-${process.arch}`);
  try {
    await access(home);
  } catch {
    // Not there yet (the one expected failure of access): fetch it.
    await mkdir(dir, { recursive: true });
    const part = `${home}.${process.pid}.part`;
    await rm(part, { recursive: true, force: true });
    try {
      for (const { name, file } of source.packages) {
        const tgz = join(dir, `${file.name}.${process.pid}`);
        try {
          await download(file, tgz, () => undefined);
          await extractTarball(tgz, join(part, 'node_modules', name), (p) => runtimeFile(name, p));
        } finally {
          await rm(tgz, { force: true });
        }
      }
      await rename(part, home).catch(async (e: unknown) => {
        // Another studio on the same cache finished first: its copy is as good.
        if (!(await access(home).then(() => true, () => false))) throw e;
        await rm(part, { recursive: true, force: true });
      });
    } catch (e) {
      await rm(part, { recursive: true, force: true });
      // The download's own words (what failed, where from, what to do); a file system error's path stays out of it.
      const err = e as NodeJS.ErrnoException;
      const why = err.syscall && err.code ? `${err.code} while writing the runtime to the studio's cache` : err.message;
      throw new EngineError('speech_failed', `The neural voice runtime (onnxruntime ${source.version}) could not be installed: ${why}`);
    }
  }
  return createRequire(join(home, 'index.js'))('onnxruntime-node') as OnnxRuntime;
}
