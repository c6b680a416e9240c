// The desktop log file: timestamped lines with levels, rotation that keeps it to a few MB, no
// key in it whatever form a line carries it in, and the local studio's output filtered to what
// matters. Real files in a temp folder.
import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppLog, pruneCrashReports, redact, studioLogEntry } from '../services/app-log.js';
import { tempDir } from './helpers.js';

const KEY = `psk_abcdef123456_${'A1b2C3d4_-'.repeat(4)}xyz`; // the render API's key format (server/keys)
const allText = (dir: string) => readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('');

describe('app log', () => {
  it('writes timestamped lines with levels to <dir>/main.log', () => {
    const dir = join(tempDir('ps-log-'), 'logs');
    const log = createAppLog({ dir });
    log.info('started');
    log.warn('studio slow');
    log.error('startup failed', new Error('boom'));
    const lines = readFileSync(join(dir, 'main.log'), 'utf8').split('\n');
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO {2}started$/);
    expect(lines[1]).toMatch(/ WARN {2}studio slow$/);
    expect(lines[2]).toMatch(/ ERROR startup failed: Error: boom$/);
    expect(lines[3]).toMatch(/^ {4,}at /); // the stack, indented under its entry
    expect(statSync(join(dir, 'main.log')).mode & 0o777).toBe(0o600);
  });

  it('rotates at the size limit and keeps only three files', () => {
    const dir = tempDir('ps-log-');
    const log = createAppLog({ dir, maxBytes: 10_000, keep: 3 });
    for (let i = 0; i < 1000; i++) log.info(`line ${i} ${'x'.repeat(80)}`);
    expect(readdirSync(dir).sort()).toEqual(['main.log', 'main.log.1', 'main.log.2']);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(10_000);
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toContain('line 999 ');
    expect(allText(dir)).not.toContain('line 0 ');
    // A new log on the same folder carries on from the existing file's size.
    const again = createAppLog({ dir, maxBytes: 10_000, keep: 3 });
    for (let i = 0; i < 200; i++) again.info(`more ${i} ${'y'.repeat(80)}`);
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(10_000);
  });

  it('never writes a key', () => {
    const dir = tempDir('ps-log-');
    const log = createAppLog({ dir });
    const envKey = 'team-secret-9f8e7d6c5b4a';
    log.addSecret(envKey);
    const lines = [
      `created service key: ${KEY}`,
      `GET /api/jobs {"headers":{"authorization":"Bearer ${KEY}"}}`,
      `curl -H "Authorization: Bearer sk_live_0123456789abcdef" ${'https://render.example.com'}`,
      `X-API-Key: ${envKey}`,
      `{"x-api-key":"another-secret-value-123"}`,
      `https://render.example.com/api/jobs?api_key=querysecret123&limit=5`,
      `request failed with key ${envKey} (HTTP 401)`,
      `pk_test_ABCDEFGHIJKLMNOP in a sentence`,
      `Authorization: Basic dXNlcjpwYXNz`,
    ];
    for (const l of lines) log.warn(l);
    log.error('uncaught', new Error(`fetch failed for Bearer ${KEY}`));
    const text = allText(dir);
    for (const secret of [KEY, envKey, 'sk_live_0123456789abcdef', 'another-secret-value-123', 'querysecret123', 'pk_test_ABCDEFGHIJKLMNOP', 'dXNlcjpwYXNz']) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/psk_[a-z0-9]{12}_/);
    expect(text).toContain('GET /api/jobs'); // the rest of the line stays
    expect(text).toContain('(HTTP 401)');
    expect(text.match(/\[redacted\]/g)!.length).toBeGreaterThanOrEqual(lines.length);
    expect(log.redact(`box: ${envKey}`)).toBe('box: [redacted]');
  });

  it('leaves ordinary lines alone', () => {
    for (const l of ['listening http://127.0.0.1:4510', 'job 7 completed in 12.5 s', 'tokens of appreciation', 'the key is set']) expect(redact(l)).toBe(l);
  });

  it('a folder it cannot write does not take the app down', () => {
    if (process.getuid?.() === 0) {
      // root writes anyway: point the log at a file where a folder should be instead
      const base = tempDir('ps-log-');
      const echoed: string[] = [];
      writeFileSync(join(base, 'logs'), 'a file, not a folder');
      const log = createAppLog({ dir: join(base, 'logs'), echo: (l) => echoed.push(l) });
      expect(() => log.info('hello')).not.toThrow();
      expect(echoed.at(-1)).toMatch(/not writable/);
      return;
    }
    const dir = tempDir('ps-log-');
    chmodSync(dir, 0o500);
    expect(() => createAppLog({ dir }).info('hello')).not.toThrow();
  });
});

describe('local studio lines in the log', () => {
  it('keeps warnings, errors and plain lines; leaves out per-request info', () => {
    expect(studioLogEntry('{"level":30,"msg":"request completed","reqId":"r1"}')).toBeNull();
    expect(studioLogEntry('{"level":40,"msg":"job stalled"}')).toEqual({ level: 'warn', message: '[studio] {"level":40,"msg":"job stalled"}' });
    expect(studioLogEntry('{"level":50,"msg":"ffmpeg failed"}')?.level).toBe('error');
    expect(studioLogEntry('listening http://127.0.0.1:43123')).toEqual({ level: 'info', message: '[studio] listening http://127.0.0.1:43123' });
    expect(studioLogEntry('local studio: the local studio exited before it was ready (code 1)')?.level).toBe('warn');
    expect(studioLogEntry('   ')).toBeNull();
  });
});

describe('crash reports', () => {
  it('keeps the newest three minidumps and nothing else is touched', () => {
    const dir = tempDir('ps-crashes-');
    mkdirSync(join(dir, 'completed'));
    for (let i = 0; i < 5; i++) {
      const f = join(dir, 'completed', `dump-${i}.dmp`);
      writeFileSync(f, 'MDMP');
      utimesSync(f, 1_700_000_000 + i * 60, 1_700_000_000 + i * 60);
    }
    writeFileSync(join(dir, 'settings.dat'), 'crashpad');
    expect(pruneCrashReports(dir)).toBe(3);
    expect(readdirSync(join(dir, 'completed')).sort()).toEqual(['dump-2.dmp', 'dump-3.dmp', 'dump-4.dmp']);
    expect(readdirSync(dir).sort()).toEqual(['completed', 'settings.dat']);
    expect(pruneCrashReports(join(dir, 'missing'))).toBe(0);
  });
});
