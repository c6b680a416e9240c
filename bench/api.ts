// `npm run bench -- api [--seconds 5] [--connections 10] [--jobs 100000]`: GET /api/jobs (page of
// 20) for a user with 100,000 jobs, and POST /api/render, each as a ratio to a bare Fastify route
// measured in the same run, plus p99 latency. Servers run in a child process so the load
// generator does not share their event loop.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { NewJob } from '../server/jobs/store.js';
import { SqliteJobStore } from '../server/jobs/sqlite-store.js';
import { openKeyStore, startServer } from '../server/start.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BODY = JSON.stringify({ text: 'Welcome to the quarterly update.', templateId: 'newsroom', voiceId: 'en-US-Ava' });

/** Child mode: serve the bare routes or the render API, print the URL. */
async function child(mode: string, dataDir: string): Promise<void> {
  let url: string;
  if (mode === 'bare') {
    const app = Fastify({ logger: false });
    app.get('/bare', async () => ({ ok: true }));
    app.post('/bare', async (request, reply) => reply.code(202).send(request.body));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  } else {
    const server = await startServer({
      dataDir,
      port: 0,
      logLevel: 'warn',
      engine: null,
      limits: { createsPerMinute: 10_000_000, activeJobsPerUser: 10_000_000 },
    });
    url = server.url;
  }
  process.stdout.write(`listening ${url}\n`);
}

function spawnChild(mode: string, dataDir: string): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/index.ts', 'api', '--child', mode, '--data', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve({ proc, url: m[1]! });
    });
    proc.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
}

interface Figures {
  rps: number;
  p99: number;
  non2xx: number;
}

async function load(url: string, opts: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; seconds: number; connections: number }): Promise<Figures> {
  const run = (duration: number) =>
    autocannon({
      url,
      method: opts.method ?? 'GET',
      headers: opts.headers,
      body: opts.body,
      connections: opts.connections,
      duration,
    });
  await run(1); // warm-up
  const r = await run(opts.seconds);
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx };
}

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      child: { type: 'string' },
      data: { type: 'string' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      jobs: { type: 'string', default: '100000' },
    },
  });
  if (values.child) return child(values.child, values.data!);

  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const jobCount = Number(values.jobs);
  const dataDir = mkdtempSync(join(tmpdir(), 'ps-bench-api-'));
  const procs: ChildProcess[] = [];
  try {
    let t = Date.now();
    const store = SqliteJobStore.open(join(dataDir, 'studio.db'));
    const batch: NewJob[] = [];
    for (let i = 0; i < jobCount; i++) {
      batch.push({
        userId: 'bench',
        text: `Narration number ${i} for the quarterly update of the studio.`,
        templateId: 'newsroom',
        voiceId: 'en-US-Ava',
        params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.72, y: 0.58 } },
      });
    }
    store.seed(batch, 'completed');
    await store.close();
    const { keys, close } = openKeyStore(dataDir);
    const key = (await keys.create({ kind: 'user', userId: 'bench' })).key;
    const poster = (await keys.create({ kind: 'user', userId: 'bench-poster' })).key;
    close();
    console.log(`seeded ${jobCount} jobs for one user in ${Date.now() - t} ms`);

    const bare = await spawnChild('bare', dataDir);
    procs.push(bare.proc);
    const api = await spawnChild('api', dataDir);
    procs.push(api.proc);
    t = Date.now();

    const auth = { authorization: `Bearer ${key}` };
    const bareGet = await load(`${bare.url}/bare`, { seconds, connections });
    const list = await load(`${api.url}/api/jobs?limit=20`, { headers: auth, seconds, connections });
    const barePost = await load(`${bare.url}/bare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY, seconds, connections });
    const create = await load(`${api.url}/api/render`, {
      method: 'POST',
      headers: { authorization: `Bearer ${poster}`, 'content-type': 'application/json' },
      body: BODY,
      seconds,
      connections,
    });

    const row = (name: string, f: Figures, base: Figures) =>
      `${name.padEnd(34)} ${f.rps.toFixed(0).padStart(8)} req/s   p99 ${String(f.p99).padStart(4)} ms   ratio ${(f.rps / base.rps).toFixed(2)}${f.non2xx ? `   non-2xx ${f.non2xx}` : ''}`;
    console.log(`\nautocannon: ${connections} connections, ${seconds} s per run, after a 1 s warm-up`);
    console.log(row('bare Fastify GET (baseline)', bareGet, bareGet));
    console.log(row(`GET /api/jobs?limit=20 (${jobCount} jobs)`, list, bareGet));
    console.log(row('bare Fastify POST (baseline)', barePost, barePost));
    console.log(row('POST /api/render', create, barePost));
    const listRatio = list.rps / bareGet.rps;
    console.log(
      `\ngoal: listing ≥ 0.40 of the bare route (${listRatio.toFixed(2)}: ${listRatio >= 0.4 ? 'met' : 'NOT met'}), ` +
        `p99 < 20 ms (${list.p99} ms: ${list.p99 < 20 ? 'met' : 'NOT met'})`,
    );
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
