// The desktop release, proven without an Electron binary: `npm run dist -- --linux dir` with a
// stand-in Electron (Node mode only), the unpacked app copied where nothing leads back into the
// project, its local studio started exactly as electron/app starts it (the app's own binary in
// Node mode, through LocalStudio), a key created, a video rendered and fetched. The build must
// leave the project's node_modules as it was, and the payload must hold nothing that must not ship.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Job } from '../../shared/contract/index.js';
import { SCENE_FONTS } from '../../shared/scene/fonts.js';
import { checkPayload } from '../build/payload-check.mjs';
import { makeStandInElectron } from '../build/stand-in-electron.mjs';
import { LocalStudio } from '../services/local-studio.js';
import { MemorySecretStore } from '../services/secrets.js';
import { readPackageInfo } from '../services/package-info.js';
import { serverCommand } from '../services/server-command.js';
import { ROOT, tempDir, waitFor } from './helpers.js';

/**
 * The Linux x64 app folder's ceiling, in MB. Three binaries the studio runs set its floor at about
 * 150 MB (ffmpeg 68, onnxruntime 46, Skia 35): this catches whatever else comes along.
 */
const PAYLOAD_LIMIT_MB = 190;

const ELECTRON_VERSION = readPackageInfo(join(ROOT, 'node_modules/electron')).version;

/** Size and mtime of every file under node_modules: a rebuild or relabel in place changes them. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      // Test runners' own caches (vitest's results), written by any run beside this one.
      if (d.endsWith('node_modules') && name === '.vite') continue;
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
      '@ffmpeg-installer/linux-x64/ffmpeg',
      '@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node',
      '@photostructure/sqlite/prebuilds/linux-x64/@photostructure+sqlite.glibc.node',
      'keytar/build/Release/keytar.node',
      'onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1',
      'onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node',
    ]);
    expect(files.some((f) => f.path.endsWith('.node') && f.path.includes('@photostructure/sqlite'))).toBe(true);
    // The fonts ship once, in resources/fonts: the engine reads them there and studio-app:// serves them to the preview.
    expect(files.filter((f) => f.path.startsWith('dist/renderer/') && /\.(ttf|otf|woff2?)$/i.test(f.path)).map((f) => f.path)).toEqual([]);
    for (const f of SCENE_FONTS) expect(files.some((p) => p.path === `resources/fonts/${f.file}`), f.file).toBe(true);
  });

  it('starts its local studio as the app does, and renders a video with captions and a thumbnail', async () => {
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
        body: JSON.stringify({ text: 'Hello from the installed app.', templateId: 'newsroom', voiceId: 'en-US-Ava', params: { aspectRatio: '9:16' } }),
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
});
