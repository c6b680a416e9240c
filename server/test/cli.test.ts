// The CLI's key commands as a person runs them: the key printed once as the last line, listed
// by id without the secret, revocable; usage errors exit 2 with a message.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { KEY_PATTERN } from '../keys/key-store.js';
import { call, testServer } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'ps-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// The server here shares the CLI's SQLite file (the PostgreSQL run has its own key commands).
it.skipIf(process.env.TEST_STORE === 'postgres')('creates, lists and revokes keys', { timeout: 60_000 }, async () => {
  const created = cli('keys', 'create', '--user', 'alice', '--label', 'laptop', '--data', dataDir);
  expect(created.code).toBe(0);
  const key = created.out.trim().split('\n').pop()!;
  const m = KEY_PATTERN.exec(key);
  expect(m).not.toBeNull();
  const service = cli('keys', 'create', '--service', '--data', dataDir);
  expect(KEY_PATTERN.test(service.out.trim().split('\n').pop()!)).toBe(true);

  const listed = cli('keys', 'list', '--data', dataDir);
  expect(listed.code).toBe(0);
  expect(listed.out).toContain(m![1]);
  expect(listed.out).toMatch(/\tuser\talice\t.*\tactive\tlaptop/);
  expect(listed.out).toMatch(/\tservice\t-\t/);
  expect(listed.out).not.toContain(m![2]);

  // The key works against a server on the same data directory until it is revoked.
  const s = await testServer({ dataDir });
  try {
    expect((await call(`${s.url}/api/jobs`, { key })).status).toBe(200);
    expect(cli('keys', 'revoke', m![1]!, '--data', dataDir).code).toBe(0);
    expect((await call(`${s.url}/api/jobs`, { key })).status).toBe(401);
  } finally {
    await s.close();
  }
  expect(cli('keys', 'list', '--data', dataDir).out).toMatch(/\trevoked /);
});

it('explains usage errors with exit code 2', { timeout: 60_000 }, () => {
  for (const args of [
    ['keys', 'create', '--data', dataDir],
    ['keys', 'create', '--user', 'bad user', '--data', dataDir],
    ['keys', 'revoke', 'nosuchkey', '--data', dataDir],
    ['serve', '--port', 'abc', '--data', dataDir],
    ['serve', '--resolution', '4k', '--data', dataDir],
    ['frobnicate'],
  ]) {
    const r = cli(...args);
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.err).toContain('usage:');
  }
});
