// Test helpers: the real render API (server/ CLI) as a child process, temp folders, waiting.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { WebShellOptions } from '../web/server.js';
import type { ClientOptions } from '../services/api-client.js';
import type { Studio } from '../services/studio.js';
import type { DraftInput } from '../../shared/bridge/index.js';
import { blankScene, DOCUMENT_VERSION } from '../../shared/contract/index.js';

export const ROOT = resolve(new URL('../..', import.meta.url).pathname);
export const SERVER_CLI = join(ROOT, 'server/cli.ts');

export const tempDir = (prefix = 'ps-electron-') => mkdtempSync(join(tmpdir(), prefix));

export function serverCommandForTests() {
  return { cmd: process.execPath, args: ['--import', 'tsx', SERVER_CLI], cwd: ROOT };
}

/** `keys create --service` (or --user) against a data folder; returns the key. */
export function createKey(dataDir: string, who: { service: true } | { user: string }): string {
  const args = ['--import', 'tsx', SERVER_CLI, 'keys', 'create', ...('service' in who ? ['--service'] : ['--user', who.user]), '--data', dataDir];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`keys create failed: ${r.stderr}`);
  return r.stdout.trim().split('\n').pop()!.trim();
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

export interface RunningApi {
  url: string;
  proc: ChildProcess;
  log: string[];
  stop(): Promise<void>;
}

/** The real render API on a given port (0 = any), with extra `serve` flags; resolves once it prints its ready line. */
export function startApi(dataDir: string, port = 0, extraArgs: string[] = []): Promise<RunningApi> {
  return new Promise((res, rej) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', SERVER_CLI, 'serve', '--port', String(port), '--data', dataDir, '--log-level', 'warn', ...extraArgs], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const log: string[] = [];
    const timer = setTimeout(() => rej(new Error(`server did not start: ${log.join('\n')}`)), 60_000);
    createInterface({ input: proc.stderr! }).on('line', (l) => log.push(l));
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      log.push(l);
      const m = /^listening (\S+)/.exec(l);
      if (m) {
        clearTimeout(timer);
        res({
          url: m[1]!,
          proc,
          log,
          stop: () =>
            new Promise<void>((done) => {
              if (proc.exitCode !== null || proc.signalCode !== null) return done();
              proc.once('exit', () => done());
              proc.kill('SIGTERM');
            }),
        });
      }
    });
    proc.on('exit', (code) => rej(new Error(`server exited (${code}): ${log.join('\n')}`)));
  });
}

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every regular file under a folder, with its content. */
export function filesUnder(dir: string): { path: string; content: string }[] {
  const out: { path: string; content: string }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push({ path: p, content: readFileSync(p, 'latin1') });
    }
  };
  walk(dir);
  return out;
}

/**
 * Options for a web shell in front of a render API (a service key), serving a tiny stand-in for
 * the built renderer (index.html loading assets/app.js), so no build is needed.
 */
export function webShellOptions(apiUrl: string, serviceKey: string, extra: Partial<WebShellOptions> = {}): WebShellOptions {
  const rendererDir = tempDir('ps-renderer-');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body><script type="module" src="./assets/app.js"></script></body></html>');
  writeFileSync(join(rendererDir, 'assets/app.js'), 'console.log(window.studio)');
  return {
    port: 0,
    host: '127.0.0.1',
    root: ROOT,
    rendererDir,
    dataDir: tempDir('ps-web-'),
    version: '0.1.0',
    env: { baseUrl: apiUrl, key: serviceKey, keyHeader: 'bearer' },
    localStudio: null,
    log: () => undefined,
    ...extra,
  };
}

/** The desktop's privileged side for remote render APIs only (no local studio), keys in memory. */
export async function remoteOnlyStudio(dataDir: string, clientOptions: ClientOptions, extra: Partial<import('../services/studio.js').StudioDeps> = {}): Promise<Studio> {
  const { createStudio } = await import('../services/studio.js');
  const { ProfileStore } = await import('../services/profiles.js');
  const { MemorySecretStore } = await import('../services/secrets.js');
  return createStudio({
    shell: 'electron',
    version: '0.1.0',
    dataDir,
    resourcesDir: join(ROOT, 'resources'),
    profiles: new ProfileStore({ dataDir, secrets: new MemorySecretStore(), env: null, editable: true, local: false }),
    env: null,
    localStudio: null,
    userId: null,
    mediaBase: 'studio-media://app',
    log: testLogger(),
    clientOptions,
    ...extra,
  });
}

/** A Logger that keeps its lines (`warn: …`, `error: …`) for a test to read. */
export function testLogger(lines: string[] = []): import('../services/logger.js').Logger & { lines: string[] } {
  return {
    lines,
    warn: (m) => void lines.push(`warn: ${m}`),
    error: (m, e) => void lines.push(`error: ${m}${e === undefined ? '' : `: ${e instanceof Error ? e.message : String(e)}`}`),
  };
}

/** A draft of one plain scene, as the editor saves a fresh script. */
export function draftInput(name: string, text: string, extra: Partial<DraftInput> = {}): DraftInput {
  return { version: DOCUMENT_VERSION, name, templateId: null, voiceId: null, params: {}, placements: {}, presenterId: null, scenes: [blankScene(text)], ...extra };
}

/**
 * A request straight to a render API with a key (a service key names its user in X-User-Id):
 * how a test checks what the API itself kept, beside what the app says.
 */
export async function askApi<T = unknown>(url: string, key: string, path: string, init: { method?: string; userId?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(init.userId ? { 'x-user-id': init.userId } : {}), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers };
  const res = await fetch(url + path, { method: init.method ?? 'GET', headers, ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
}

/** The render API's request log lines (`--log-level info`) for this method and path prefix. */
export const apiRequests = (api: RunningApi, method: string, pathPrefix: string): string[] =>
  api.log.filter((l) => l.includes('"incoming request"') && l.includes(`"method":"${method}"`) && l.includes(`"url":"${pathPrefix}`));
