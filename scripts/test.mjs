#!/usr/bin/env node
// `npm test`: every suite through the real parts. Runs inside a throwaway D-Bus session with
// an unlocked gnome-keyring (a real Secret Service for keytar) and a throwaway HOME, then
// vitest (API, engine, services, contract) and Playwright (UI in Debian Chromium, Electron
// smoke). Ends with one line "N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

if (!process.env.PS_TEST_SESSION && has('dbus-run-session') && has('gnome-keyring-daemon')) {
  const home = mkdtempSync(join(tmpdir(), 'ps-test-home-'));
  const inner = `echo -n ps-test-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec node ${JSON.stringify(join(root, 'scripts/test.mjs'))} "$@"`;
  const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner, 'sh', ...args], {
    stdio: 'inherit',
    env: { ...process.env, PS_TEST_SESSION: '1', HOME: home, XDG_RUNTIME_DIR: home, PS_REAL_HOME: process.env.HOME ?? '' },
  });
  process.exit(r.status ?? 1);
}

mkdirSync(join(root, 'test-results'), { recursive: true });
const only = args.find((a) => a.startsWith('--only='))?.slice(7); // vitest | ui
const rest = args.filter((a) => !a.startsWith('--only='));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedRun = false;

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', cwd: root, env: process.env });
  if (r.status !== 0) failedRun = true;
}

// PostgreSQL for the fleet tests and the second API pass: a running cluster of the Debian
// package (scripts/test-postgres.sh starts one) unless TEST_DATABASE_URL names one.
if ((!only || only === 'vitest') && !process.env.TEST_DATABASE_URL) {
  const pg = spawnSync(join(root, 'scripts/test-postgres.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // The last line is the URL, should anything else ever reach stdout.
  const url = pg.stdout?.trim().split('\n').pop() ?? '';
  if (pg.status === 0 && url.startsWith('postgres://')) process.env.TEST_DATABASE_URL = url;
  else console.warn(`PostgreSQL could not be started; its tests are skipped: ${(pg.stderr || pg.error?.message || '').trim()}`);
}

function vitest(name, files, env = {}) {
  const out = join(root, `test-results/${name}.json`);
  const r = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...files], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) failedRun = true;
  if (existsSync(out)) {
    const j = JSON.parse(readFileSync(out, 'utf8'));
    totals.passed += j.numPassedTests ?? 0;
    totals.failed += j.numFailedTests ?? 0;
    totals.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  }
}

if (!only || only === 'vitest') {
  vitest('vitest', rest);
  // The API suites a second time, unchanged, against the PostgreSQL store (TEST_STORE in server/test/helpers.ts).
  const pgSuites = ['server/test/api.test.ts', 'server/test/property.test.ts', 'server/test/assets.test.ts', 'server/test/scenes.test.ts'].filter(
    (f) => rest.length === 0 || rest.some((r) => f.startsWith(r) || r.startsWith(f)),
  );
  if (pgSuites.length && process.env.TEST_DATABASE_URL) vitest('vitest-postgres', pgSuites, { TEST_STORE: 'postgres' });
  else if (pgSuites.length) console.warn('skipped: the API suite on PostgreSQL (no PostgreSQL could be started)');
}
if ((!only || only === 'ui') && existsSync(join(root, 'playwright.config.ts'))) {
  if (!existsSync(join(root, 'dist/renderer/index.html')) || process.env.CI) {
    run('npm', ['run', '--silent', 'build']);
  }
  const out = join(root, 'test-results/playwright.json');
  const r = spawnSync('npx', ['playwright', 'test', ...rest], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  if (r.status !== 0) failedRun = true;
  if (existsSync(out)) {
    const s = JSON.parse(readFileSync(out, 'utf8')).stats ?? {};
    totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
    totals.failed += s.unexpected ?? 0;
    totals.skipped += s.skipped ?? 0;
  }
}
if (failedRun && totals.failed === 0) totals.failed = 1; // a crashed runner counts as a failure
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRun ? 1 : 0);

