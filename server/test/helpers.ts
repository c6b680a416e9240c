// Test helpers: a real server on a real socket in a throwaway data directory, keys made
// through the same key store the CLI uses, and a small fetch wrapper.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorBody } from '../../shared/contract/index.js';
import { startServer } from '../start.js';
import type { RunningServer, ServerOptions } from '../start.js';
import { freshSchema } from './postgres-db.js';

export interface TestServer extends RunningServer {
  dataDir: string;
  userKey(userId: string): Promise<string>;
  serviceKey(): Promise<string>;
  stop(): Promise<void>;
}

export async function testServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'ps-server-test-'));
  // TEST_STORE=postgres: the same suites on PostgreSQL, each server in a schema of its own.
  const pg = process.env.TEST_STORE === 'postgres' && options.database === undefined ? await freshSchema() : null;
  const server = await startServer({
    port: 0,
    logLevel: process.env.TEST_LOG ?? 'silent',
    engine: null,
    shutdownGraceMs: 2000,
    ...options,
    dataDir,
    ...(pg ? { database: pg.url } : {}),
  });
  return {
    ...server,
    dataDir,
    userKey: async (userId) => (await server.keys.create({ kind: 'user', userId })).key,
    serviceKey: async () => (await server.keys.create({ kind: 'service', userId: null })).key,
    stop: async () => {
      await server.close();
      await pg?.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Res {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are checked by the tests
  body: any;
  text: string;
}

export async function call(
  url: string,
  init: { method?: string; key?: string; headers?: Record<string, string>; json?: unknown; body?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Asserts the contract's error body and returns its code. */
export function errorCode(res: Res): string {
  const parsed = ErrorBody.safeParse(res.body);
  if (!parsed.success) throw new Error(`not a contract error body (${res.status}): ${res.text.slice(0, 300)}`);
  if (res.headers.get('x-request-id') !== parsed.data.error.requestId) throw new Error('requestId does not match X-Request-Id');
  return parsed.data.error.code;
}

export const validRequest = { text: 'Welcome to the quarterly update.', templateId: 'newsroom', voiceId: 'en-US-Ava' };

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
