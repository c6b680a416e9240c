// The desktop release, proven without an Electron binary: `npm run dist -- --linux dir` with a
// stand-in Electron (Node mode only), the unpacked app copied where nothing leads back into the
// project, its local studio started exactly as electron/app starts it (the app's own binary in
// Node mode, through LocalStudio), a key created, a video rendered (with the system's ffmpeg:
// Linux packages carry none) and fetched; every packaged native module loads, and onnxruntime,
// which does not ship, is downloaded and run by the installed app's own loader. The build must
// leave the project's node_modules as it was, and the payload must hold nothing that must not
// ship; its size is printed and held to the limit below. Every file it stores compressed is read
// back where the app reads it: the render speaks with Pico, draws the fonts and the presenter's
// art; the installed Flite speaks, the installed kuromoji reads kanji, the installed pdf.js draws
// a page, and the app's own studio-app:// handler answers the page's files as built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { Job } from '../../shared/contract/index.js';
import { SCENE_FONTS } from '../../shared/scene/fonts.js';
import { serveOnnxRuntime } from '../../server/engine/test/onnx-runtime-source.js';
import { tinyPiperModel } from '../../server/engine/test/tiny-onnx.js';
import { pdf } from '../../server/test/fixtures/media.js';
import { checkPayload, listFiles } from '../build/payload-check.mjs';
import { PACKED_DICTIONARY, PACKED_FILES } from '../build/after-pack.mjs';
import { DICTIONARY_FILES } from '../../server/engine/speech/japanese-dictionary.mjs';
import { APP_ORIGIN, handleSchemes } from '../app/protocols.js';
import { rendererDirs } from '../services/renderer-files.js';
import { makeStandInElectron } from '../build/stand-in-electron.mjs';
import { LocalStudio } from '../services/local-studio.js';
import { MemorySecretStore } from '../services/secrets.js';
import { readPackageInfo } from '../services/package-info.js';
import { serverCommand } from '../services/server-command.js';
import { ROOT, tempDir, waitFor } from './helpers.js';

/**
 * The Linux x64 app folder's ceiling, in MB: ffmpeg is the distribution's there and onnxruntime
 * is downloaded with the first neural voice, so Skia is the largest part left, then the offline
 * voices that need no download (Flite's module, stored compressed), the Japanese dictionary
 * (packed) and MediaPipe's Face Mesh and Selfie Segmentation in the renderer (see docs/desktop.md).
 */
const PAYLOAD_LIMIT_MB = 90;

const ELECTRON_VERSION = readPackageInfo(join(ROOT, 'node_modules/electron')).version;

/** Size and mtime of every file under node_modules: a rebuild or relabel in place changes them. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      // Vite's and vitest's own caches and the config bundles vite writes and removes while it
      // builds, written by any run beside this one (this build's included).
      if (d.endsWith('node_modules') && (name === '.vite' || name === '.vite-temp')) continue;
      const full = join(d, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      else out.set(full, `${st.size}:${st.mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

const work = tempDir('ps-packaged-');
const installed = join(work, 'Presenter Studio'); // a folder with a space, far from the project
let build: { status: number | null; output: string };
let before: Map<string, string>;

beforeAll(() => {
  before = snapshot(join(ROOT, 'node_modules'));
  const standIn = makeStandInElectron(join(work, 'electron-stand-in'));
  const r = spawnSync('npm', ['run', '--silent', 'dist', '--', '--linux', 'dir', `-c.electronDist=${standIn}`], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
  });
  build = { status: r.status, output: `${r.stdout}\n${r.stderr}` };
  if (r.status === 0) cpSync(join(ROOT, 'release/linux-unpacked'), installed, { recursive: true, verbatimSymlinks: true });
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run dist -- --linux dir (stand-in Electron)', () => {
  it('builds, with every packaged native module checked for Electron and leaves node_modules as it was', () => {
    expect(build.status, build.output.slice(-4000)).toBe(0);
    expect(build.output).toContain('payload checked');
    const after = snapshot(join(ROOT, 'node_modules'));
    const changed = [...after].filter(([f, v]) => before.get(f) !== v).map(([f]) => f);
    const removed = [...before.keys()].filter((f) => !after.has(f));
    expect({ changed, removed }).toEqual({ changed: [], removed: [] });
  });

  it('ships nothing that must not ship, and nothing that points back into the project', () => {
    const appDir = join(installed, 'resources/app');
    const { problems, bytes, files, binaries } = checkPayload(appDir, { platform: 'linux', arch: 'x64', abi: 'n-api only', electronVersion: ELECTRON_VERSION });
    expect(problems).toEqual([]);
    const links = files.filter((f) => lstatSync(join(appDir, f.path)).isSymbolicLink());
    for (const l of links) expect(resolve(appDir, readlinkSync(join(appDir, l.path))).startsWith(installed)).toBe(true);
    // The figure docs/desktop.md reports.
    console.log(`app payload: ${(bytes / 1e6).toFixed(1)} MB in ${files.length} files`);
    console.log(`binaries:\n${binaries.map((b) => `  ${b.kind} ${b.os}-${b.arch} ${(b.size / 1e6).toFixed(1)} MB ${b.path}`).join('\n')}`);
    expect(bytes / 1e6).toBeLessThanOrEqual(PAYLOAD_LIMIT_MB);
    // Every .node module, shared library and executable is for this OS and CPU, and there is one of each.
    expect(binaries.filter((b) => b.os !== 'linux' || b.arch !== 'x64').map((b) => `${b.path}: ${b.os}-${b.arch}`)).toEqual([]);
    expect(binaries.map((b) => b.path.replace(/^node_modules\//, '')).sort()).toEqual([
      '@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node',
      '@photostructure/sqlite/prebuilds/linux-x64/@photostructure+sqlite.glibc.node',
      'keytar/build/Release/keytar.node',
    ]);
    // Every one of them loads in the app's own runtime (Node mode of its binary).
    const modules = binaries.filter((b) => b.kind === 'module').map((b) => join(appDir, b.path));
    const load = spawnSync(join(installed, 'presenter-studio'), ['-e', 'for (const f of JSON.parse(process.argv[1])) { process.dlopen({ exports: {} }, f); console.log("loaded", f); }', JSON.stringify(modules)], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    expect(load.status, load.stderr).toBe(0);
    expect(load.stdout.trim().split('\n')).toEqual(modules.map((m) => `loaded ${m}`));
    // The fonts ship once, in resources/fonts: the engine reads them there and studio-app:// serves them to the preview.
    expect(files.filter((f) => f.path.startsWith('dist/renderer/') && /\.(ttf|otf|woff2?)$/i.test(f.path)).map((f) => f.path)).toEqual([]);
    for (const f of SCENE_FONTS) expect(files.some((p) => p.path === `resources/fonts/${f.file}.br`), f.file).toBe(true);
    // What the Japanese dictionary's own loader replaces is not shipped.
    expect(files.filter((f) => /^node_modules\/(async|lodash|zlibjs)\//.test(f.path)).map((f) => f.path)).toEqual([]);
  });

  it('reads back every file it stores compressed: Flite speaks, kuromoji reads kanji, pdf.js draws a page in the installed runtime, the page loads over studio-app://', async () => {
    const root = join(installed, 'resources/app');
    const paths = listFiles(root).map((f) => f.path);
    for (const pattern of PACKED_FILES) {
      expect(paths.filter((p) => !p.endsWith('.br') && pattern.test(p)), String(pattern)).toEqual([]);
      expect(paths.filter((p) => p.endsWith('.br') && pattern.test(p.slice(0, -3))).length, String(pattern)).toBeGreaterThan(0);
    }
    expect(readdirSync(join(root, PACKED_DICTIONARY)).sort()).toEqual(Object.keys(DICTIONARY_FILES).map((n) => `${n}.dat.br`).sort());
    // The installed Flite loader, run by the installed binary in Node mode as the speech worker runs it.
    const script = `
      const { loadFlite } = await import(process.argv[1]);
      const { samples, sampleRate } = (await loadFlite()).synthesize('Hello from the installed app.', 'awb');
      let peak = 0; for (const s of samples) peak = Math.max(peak, Math.abs(s));
      console.log(JSON.stringify({ seconds: samples.length / sampleRate, peak }));`;
    const flite = spawnSync(join(installed, 'presenter-studio'), ['--input-type=module', '-e', script, pathToFileURL(join(root, 'server/engine/speech/flite-wasm.mjs')).href], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    expect(flite.status, flite.stderr).toBe(0);
    const spoken = z.object({ seconds: z.number(), peak: z.number() }).parse(JSON.parse(flite.stdout));
    expect(spoken.seconds).toBeGreaterThan(1);
    expect(spoken.peak).toBeGreaterThan(1000);
    // The installed Japanese reader, in its worker, over the packed dictionary.
    // (A script file: the worker would inherit --input-type, which only -e takes.)
    const reader = join(work, 'read-japanese.mjs');
    writeFileSync(reader, `const { japaneseReadings } = await import(process.argv[2]);
      console.log(JSON.stringify([...(await japaneseReadings('東京で日本語の文章を読みます。'))]));`);
    const japanese = spawnSync(join(installed, 'presenter-studio'), [reader, pathToFileURL(join(root, 'server/engine/speech/japanese-readings.js')).href], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    expect(japanese.status, japanese.stderr).toBe(0);
    expect(JSON.parse(japanese.stdout)).toEqual([['東京で日本語の文章を読みます', 'とーきょーでにほんごのぶんしょーをよみます']]);
    // The installed pdf.js (its minified build and worker, its data packed) draws a document's page.
    const deck = join(work, 'deck.pdf');
    writeFileSync(deck, pdf(1));
    const drawer = join(work, 'draw-pdf.mjs');
    writeFileSync(drawer, `const { renderPdfPage } = await import(process.argv[2]);
      const c = await renderPdfPage(process.argv[3], 1, 421, 298);
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let ink = 0; for (let i = 0; i < d.length; i += 4) if (d[i] < 128) ink++;
      console.log(JSON.stringify({ width: c.width, height: c.height, ink }));`);
    const drawn = spawnSync(join(installed, 'presenter-studio'), [drawer, pathToFileURL(join(root, 'server/assets/pdf.js')).href, deck], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    expect(drawn.status, drawn.stderr).toBe(0);
    const page = z.object({ width: z.number(), height: z.number(), ink: z.number() }).parse(JSON.parse(drawn.stdout));
    expect(page).toMatchObject({ width: 421, height: 298 });
    expect(page.ink).toBeGreaterThan(100); // "Slide 1" in 24-pixel letters
    // The app's own studio-app:// handler, given the installed renderer, answers the module whole.
    const handlers = new Map<string, (r: Request) => Response | Promise<Response>>();
    handleSchemes({ registerSchemesAsPrivileged: () => {}, handle: (scheme, h) => void handlers.set(scheme, h) }, rendererDirs(root), { openMedia: () => Promise.reject(new Error('no media here')) });
    const res = await handlers.get('studio-app')!(new Request(`${APP_ORIGIN}/mediapipe/face_mesh/face_mesh_solution_simd_wasm_bin.wasm`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/wasm');
    const wasm = Buffer.from(await res.arrayBuffer());
    expect(wasm.equals(readFileSync(join(ROOT, 'node_modules/@mediapipe/face_mesh/face_mesh_solution_simd_wasm_bin.wasm')))).toBe(true);
    // Every packed file of the page (its scripts, MediaPipe's, the fonts) is answered as the build wrote it.
    const served = paths.filter((p) => p.endsWith('.br') && /^(dist\/renderer|resources\/fonts)\//.test(p)).map((p) => p.slice(0, -3));
    expect(served.length).toBeGreaterThan(SCENE_FONTS.length);
    for (const p of served) {
      const url = p.startsWith('resources/fonts/') ? p.replace('resources/', '/') : p.replace('dist/renderer', '');
      const answer = await handlers.get('studio-app')!(new Request(`${APP_ORIGIN}${url}`));
      expect(answer.status, p).toBe(200);
      expect(Buffer.from(await answer.arrayBuffer()).equals(readFileSync(join(ROOT, p))), p).toBe(true);
    }
  });

  it('starts its local studio as the app does, and renders a video with captions and a thumbnail (Pico speaks)', async () => {
    const root = join(installed, 'resources/app');
    const binary = join(installed, 'presenter-studio');
    expect(statSync(binary).mode & 0o111).not.toBe(0);
    const logs: string[] = [];
    const studio = new LocalStudio({
      command: serverCommand(root, { execPath: binary, electron: true }),
      dataDir: join(work, 'user-data/studio'),
      secrets: new MemorySecretStore(),
      userId: 'desktop',
      log: (l) => logs.push(l),
    });
    try {
      await studio.start();
      expect(studio.status().state, logs.join('\n')).toBe('running');
      // Every native module the studio loaded came from the installed copy.
      const maps = readFileSync(`/proc/${studio.pid}/maps`, 'utf8');
      const natives = [...new Set(maps.split('\n').map((l) => l.split(/\s+/).slice(5).join(' ')).filter((p) => p.endsWith('.node')))];
      expect(natives.length).toBeGreaterThan(0);
      for (const n of natives) expect(n.startsWith(installed), n).toBe(true);

      const base = studio.status().baseUrl!;
      const headers = { authorization: `Bearer ${await studio.key()}`, 'x-user-id': 'desktop' };
      const res = await fetch(`${base}/api/render`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Hello from the installed app.', templateId: 'newsroom', voiceId: 'en-US-Lisa', params: { aspectRatio: '9:16' } }),
      });
      expect(res.status).toBe(202);
      const { id } = (await res.json()) as Job;
      const job = await waitFor(async () => {
        const j = (await (await fetch(`${base}/api/jobs/${id}`, { headers })).json()) as Job;
        return j.status === 'completed' || j.status === 'failed' ? j : null;
      }, 'the render', 300_000);
      expect(job.error, logs.join('\n')).toBeNull();
      expect(job.output).toMatchObject({ width: 720, height: 1280 });
      const video = Buffer.from(await (await fetch(`${base}/api/jobs/${id}/video`, { headers })).arrayBuffer());
      expect(video.subarray(4, 8).toString()).toBe('ftyp');
      expect(video.length).toBe(job.output!.sizeBytes);
      const vtt = await (await fetch(`${base}/api/jobs/${id}/captions.vtt`, { headers })).text();
      expect(vtt.startsWith('WEBVTT')).toBe(true);
      expect(vtt).toContain('installed');
      const thumb = Buffer.from(await (await fetch(`${base}/api/jobs/${id}/thumbnail.jpg`, { headers })).arrayBuffer());
      expect(thumb.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    } finally {
      await studio.stop();
    }
    expect(studio.status().state).toBe('stopped');
  });

  it('downloads onnxruntime with the first neural voice (it does not ship) and runs a model on it', async () => {
    const root = join(installed, 'resources/app');
    const served = await serveOnnxRuntime();
    const model = join(work, 'tiny.onnx');
    writeFileSync(model, tinyPiperModel());
    const cache = join(work, 'user-data/studio/cache/voice-packs');
    // The installed studio's own loader, run by the installed binary in Node mode as the studio runs.
    const script = `
      const [loader, cache, source, model] = process.argv.slice(1);
      const { loadOnnxRuntime } = await import(loader);
      const ort = await loadOnnxRuntime(cache, JSON.parse(source));
      const session = await ort.InferenceSession.create(model);
      const out = await session.run({
        input: new ort.Tensor('int64', BigInt64Array.of(1n, 2n, 3n), [1, 3]),
        input_lengths: new ort.Tensor('int64', BigInt64Array.of(3n), [1]),
        scales: new ort.Tensor('float32', Float32Array.of(0.667, 1, 0.8), [3]),
      });
      const maps = (await import('node:fs')).readFileSync('/proc/self/maps', 'utf8').split('\\n');
      console.log(JSON.stringify({ samples: out.output.data.length, natives: [...new Set(maps.map((l) => l.split(/\\s+/).slice(5).join(' ')).filter((p) => p.endsWith('.node')))] }));`;
    try {
      const run = () =>
        new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
          const child = spawn(join(installed, 'presenter-studio'), ['--input-type=module', '-e', script, pathToFileURL(join(root, 'server/engine/speech/onnx-runtime.js')).href, cache, JSON.stringify(served.source), model], {
            env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d));
          child.stderr.on('data', (d: Buffer) => (stderr += d));
          child.on('close', (status) => done({ status, stdout, stderr }));
        });
      const first = await run();
      expect(first.status, first.stderr).toBe(0);
      const result = z.object({ samples: z.number(), natives: z.array(z.string()) }).parse(JSON.parse(first.stdout));
      expect(result.samples).toBe(3 * 256);
      expect(served.requests).toEqual(['/onnxruntime-node.tgz', '/onnxruntime-common.tgz']);
      expect(result.natives.filter((n) => n.includes('onnxruntime'))).toEqual([join(cache, `onnxruntime-${served.source.version}-linux-x64/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node`)]);
      // A second start of the studio loads it from its cache: nothing is downloaded again.
      served.requests.length = 0;
      const second = await run();
      expect(second.status, second.stderr).toBe(0);
      expect(served.requests).toEqual([]);
    } finally {
      served.close();
    }
  });
});
