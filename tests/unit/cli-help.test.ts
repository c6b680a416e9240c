// Every CLI (npm run web / server / bench) answers --help with its usage and exit code 0, without
// starting a server or writing anything (to the working folder or the home folder); an unknown
// flag exits 2 with a message and the usage.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = import.meta.resolve('tsx');
const scratch = mkdtempSync(join(tmpdir(), 'ps-cli-help-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CLIS: [string, string, string[]][] = [
  ['web', 'electron/web/cli.ts', []],
  ['server', 'server/cli.ts', []],
  ['server serve', 'server/cli.ts', ['serve']],
  ['server keys', 'server/cli.ts', ['keys', 'create']],
  ['bench', 'bench/index.ts', []],
  ['bench api', 'bench/index.ts', ['api']],
  ['bench ui', 'bench/index.ts', ['ui']],
  ['bench voices', 'bench/index.ts', ['voices']],
];

/** Runs a CLI in an empty working folder with an empty HOME; returns what it wrote there too. */
function run(script: string, args: string[]) {
  const dir = mkdtempSync(join(scratch, 'run-'));
  const home = mkdtempSync(join(scratch, 'home-'));
  const r = spawnSync(process.execPath, ['--import', TSX, join(ROOT, script), ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 20_000, // a CLI that started a server instead would still be running
    env: { ...process.env, HOME: home, USERPROFILE: home, STUDIO_WEB_DATA: '', RENDER_API_BASE_URL: '', RENDER_API_KEY: '' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr, written: [...readdirSync(dir), ...readdirSync(home)] };
}

describe('CLI --help', () => {
  for (const [name, script, args] of CLIS) {
    it(`${name} --help prints its usage, exits 0 and writes nothing`, { timeout: 30_000 }, () => {
      const r = run(script, [...args, '--help']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/usage:/);
      expect(r.written).toEqual([]);
    });
    it(`${name} exits 2 on an unknown flag`, { timeout: 30_000 }, () => {
      const r = run(script, [...args, '--frobnicate']);
      expect(r.code, r.out).toBe(2);
      expect(r.err).toMatch(/--frobnicate/);
      expect(r.err).toMatch(/usage:/);
      expect(r.written).toEqual([]);
    });
  }
});
