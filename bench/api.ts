// `npm run bench -- api [--seconds 3] [--rounds 3] [--connections 10] [--jobs 100000]`: GET /api/jobs (page of
// 20) for a user with 100,000 jobs, and POST /api/render, each as a ratio to a bare Fastify route
// measured in the same run, plus p99 latency. The list is measured with the page cache (what a
// polling client sees) and without it (every request reaches the store). Servers run in a child process so the load
// generator does not share their event loop.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
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
      listCache: mode !== 'api-nocache',
      concurrency: 0, // the API alone: no render workers picking up the created jobs
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

/** Direct store inserts in one transaction; the batch is garbage before the measuring starts. */
function seed(dataDir: string, count: number): void {
  const store = SqliteJobStore.open(join(dataDir, 'studio.db'));
  const params = { aspectRatio: '16:9' as const, avatar: { scale: 0.6, x: 0.72, y: 0.58 } };
  const batch: NewJob[] = Array.from({ length: count }, (_, i) => ({
    userId: 'bench',
    text: `Narration number ${i} for the quarterly update of the studio.`,
    templateId: 'newsroom',
    voiceId: 'en-US-Ava',
    params,
  }));
  store.seed(batch, 'completed');
  void store.close();
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

export const USAGE = 'npm run bench -- api [--seconds 3] [--rounds 3] [--connections 10] [--jobs 100000]';
export const OPTIONS = {
  child: { type: 'string' },
  data: { type: 'string' },
  seconds: { type: 'string', default: '3' },
  rounds: { type: 'string', default: '3' },
  connections: { type: 'string', default: '10' },
  jobs: { type: 'string', default: '100000' },
} as const satisfies ParseArgsOptionsConfig;

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: OPTIONS });
  if (values.child) return child(values.child, values.data!);

  const seconds = Number(values.seconds);
  const roundCount = Number(values.rounds);
  const connections = Number(values.connections);
  const jobCount = Number(values.jobs);
  const dataDir = mkdtempSync(join(tmpdir(), 'ps-bench-api-'));
  const procs: ChildProcess[] = [];
  try {
    let t = Date.now();
    seed(dataDir, jobCount);
    const { keys, close } = openKeyStore(dataDir);
    const key = (await keys.create({ kind: 'user', userId: 'bench' })).key;
    const poster = (await keys.create({ kind: 'user', userId: 'bench-poster' })).key;
    close();
    console.log(`seeded ${jobCount} jobs for one user in ${Date.now() - t} ms`);
    // A data folder takes one server (data-lock.ts): the second API server reads a copy.
    const nocacheDir = `${dataDir}-nocache`;
    cpSync(dataDir, nocacheDir, { recursive: true });

    const bare = await spawnChild('bare', dataDir);
    procs.push(bare.proc);
    const api = await spawnChild('api', dataDir);
    procs.push(api.proc);
    const nocache = await spawnChild('api-nocache', nocacheDir);
    procs.push(nocache.proc);
    t = Date.now();

    // Rounds alternate baseline and endpoint so both see the same machine load; medians are reported.
    const auth = { authorization: `Bearer ${key}` };
    const post = { 'content-type': 'application/json' };
    const rounds: { bareGet: Figures; list: Figures; listNoCache: Figures; barePost: Figures; create: Figures }[] = [];
    for (let i = 0; i < roundCount; i++) {
      rounds.push({
        bareGet: await load(`${bare.url}/bare`, { seconds, connections }),
        list: await load(`${api.url}/api/jobs?limit=20`, { headers: auth, seconds, connections }),
        listNoCache: await load(`${nocache.url}/api/jobs?limit=20`, { headers: auth, seconds, connections }),
        barePost: await load(`${bare.url}/bare`, { method: 'POST', headers: post, body: BODY, seconds, connections }),
        create: await load(`${api.url}/api/render`, { method: 'POST', headers: { ...post, authorization: `Bearer ${poster}` }, body: BODY, seconds, connections }),
      });
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const pick = (k: keyof (typeof rounds)[number]): Figures => ({
      rps: median(rounds.map((r) => r[k].rps)),
      p99: median(rounds.map((r) => r[k].p99)),
      non2xx: rounds.reduce((a, r) => a + r[k].non2xx, 0),
    });
    const [bareGet, list, listNoCache, barePost, create] = [pick('bareGet'), pick('list'), pick('listNoCache'), pick('barePost'), pick('create')];
    const listRatio = median(rounds.map((r) => r.list.rps / r.bareGet.rps));
    const noCacheRatio = median(rounds.map((r) => r.listNoCache.rps / r.bareGet.rps));
    const createRatio = median(rounds.map((r) => r.create.rps / r.barePost.rps));

    const row = (name: string, f: Figures, ratio: number) =>
      `${name.padEnd(36)} ${f.rps.toFixed(0).padStart(7)} req/s   p99 ${String(f.p99).padStart(4)} ms   ratio ${ratio.toFixed(2)}${f.non2xx ? `   non-2xx ${f.non2xx}` : ''}`;
    console.log(`\nautocannon: ${connections} connections, ${roundCount} alternating rounds of ${seconds} s (after 1 s warm-up each); medians`);
    console.log(row('bare Fastify GET (baseline)', bareGet, 1));
    console.log(row(`GET /api/jobs?limit=20 (${jobCount} jobs)`, list, listRatio));
    console.log(row('  the same, page cache off (store)', listNoCache, noCacheRatio));
    console.log(row('bare Fastify POST (baseline)', barePost, 1));
    console.log(row('POST /api/render', create, createRatio));
    console.log(
      `\ngoal: listing ≥ 0.40 of the bare route (${listRatio.toFixed(2)}: ${listRatio >= 0.4 ? 'met' : 'NOT met'}), ` +
        `p99 < 20 ms (${list.p99} ms: ${list.p99 < 20 ? 'met' : 'NOT met'}); ` +
        `without the page cache: ratio ${noCacheRatio.toFixed(2)}, p99 ${listNoCache.p99} ms`,
    );
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}-nocache`, { recursive: true, force: true });
  }
}
