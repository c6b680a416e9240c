// Data at rest: studio.db (every user's scripts) with its WAL and shared-memory files, every
// rendered video and uploaded file, and the folders that hold them are owner-only, even under a
// permissive umask; a data folder that cannot be used is named with the cause.
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/contract/index.js';
import { createTestEngine } from './fixtures/test-engine.js';
import { call, testServer, validRequest, waitFor } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'ps-at-rest-'));
let umask: number;
beforeAll(() => {
  umask = process.umask(0o022); // what most accounts have: 0644 files, 0755 folders
});
afterAll(() => {
  process.umask(umask);
  rmSync(scratch, { recursive: true, force: true });
});

/** Every file and folder under `dir` that someone other than its owner may read or enter. */
function exposed(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      if ((st.mode & 0o077) !== 0) out.push(`${p.slice(dir.length)} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) walk(p);
    }
  };
  if ((lstatSync(dir).mode & 0o077) !== 0) out.push(`(data folder) ${(lstatSync(dir).mode & 0o777).toString(8)}`);
  walk(dir);
  return out;
}

describe.skipIf(process.env.TEST_STORE === 'postgres')('files at rest', () => {
  it('are owner-only: the database, its WAL, videos, uploads and their folders', { timeout: 60_000 }, async () => {
    const dataDir = join(scratch, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    const s = await testServer({ dataDir, engine: createTestEngine(), concurrency: 1 });
    try {
      const key = await s.userKey('owner');
      const created = await call(`${s.url}/api/render`, { key, json: validRequest });
      await waitFor(async () => ((await call(`${s.url}/api/jobs/${created.body.id}`, { key })).body as Job).status === 'completed', 30_000);
      const png = await createCanvas(64, 36).encode('png');
      const up = await fetch(`${s.url}/api/assets?name=card.png`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' }, body: new Uint8Array(png) });
      expect(up.status).toBe(201);
      const names = readdirSync(dataDir);
      expect(names).toEqual(expect.arrayContaining(['studio.db', 'studio.db-wal', 'studio.db-shm', 'media']));
      expect(exposed(dataDir)).toEqual([]);
    } finally {
      await s.stop();
    }
  });

  it('tightens a data folder made before, with a readable database', async () => {
    const dataDir = join(scratch, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    writeFileSync(join(dataDir, 'studio.db'), '', { mode: 0o644 });
    const s = await testServer({ dataDir });
    await s.stop();
    expect(exposed(dataDir)).toEqual([]);
  });
});

function serve(dataDir: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'serve', '--port', '0', '--data', dataDir], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, err: r.stderr };
}

describe('a data folder that cannot be used', () => {
  it('exits naming the folder and the cause when a file stands in its way', () => {
    writeFileSync(join(scratch, 'a-file'), 'x');
    const dataDir = join(scratch, 'a-file', 'data');
    const r = serve(dataDir);
    expect(r.code).toBe(1);
    expect(r.err).toContain(dataDir);
    expect(r.err).toMatch(/a file stands where a folder should be|ENOTDIR/);
    expect(r.err).not.toMatch(/unable to open database file/);
  });

  // A read-only mount needs root; without it, a folder without write permission (refused to anyone else).
  const root = process.getuid?.() === 0;
  it('exits naming the folder and the cause when it is read-only', () => {
    const dataDir = join(scratch, 'readonly');
    mkdirSync(dataDir);
    if (root) {
      const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dataDir]);
      if (m.status !== 0) return; // no mounts here (a container without the capability)
    } else {
      spawnSync('chmod', ['0500', dataDir]);
    }
    try {
      for (const dir of [dataDir, join(dataDir, 'missing')]) {
        const r = serve(dir);
        expect(r.code, dir).toBe(1);
        expect(r.err, dir).toContain(dir);
        expect(r.err, dir).toMatch(root ? /read-only file system/ : /permission denied/);
        expect(r.err, dir).not.toMatch(/unable to open database file/);
      }
    } finally {
      if (root) spawnSync('umount', [dataDir]);
    }
  });
});
