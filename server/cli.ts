// `npm run server -- serve --port N --data DIR [--concurrency N] [--host H]` runs the render API;
// `keys create --user ID [--service] | keys list | keys revoke KEY_ID` (all with --data DIR)
// manage its keys. `serve` prints `listening <url>` on stdout once it accepts requests.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { int, isUsageError, UsageError } from '../shared/cli-args.js';
import { ASSET_KINDS, LIMITS, RESOLUTIONS, Resolution, type AssetKind } from '../shared/contract/index.js';
import type { RenderEngine } from './engine/types.js';
import { databaseUrl, openPostgres } from './jobs/pg-backend.js';
import { openKeyStore, startServer } from './start.js';
import { startWorker } from './worker.js';

const USAGE = `usage:
  npm run server -- serve [--port 4510] [--host 127.0.0.1] [--data .data] [--concurrency N]
                          [--log-level info] [--creates-per-minute 60] [--active-jobs 500]
                          [--heartbeat-ms 15000] [--grace-ms 30000] [--resolution 720p|1080p]
                          [--database postgres://…] [--storage DIR] [--workers N]
                          [--event-streams-per-user 10] [--event-streams 1000] [--exit-with-parent]
                          [--asset-quota-mib 5120] [--asset-max-mib image=25,audio=100,document=100,video=1024]
  npm run server -- worker --database postgres://… --storage DIR [--concurrency 1] [--lease-ms 30000]
                          [--work DIR] [--grace-ms 30000] [--resolution 720p|1080p]
  (--database defaults to DATABASE_URL; without either, jobs and keys live in SQLite under --data)
  npm run server -- keys create --user ID [--label TEXT] [--data .data | --database postgres://…]
  npm run server -- keys create --service [--label TEXT] [--replace] [--data .data | --database postgres://…]
  npm run server -- keys list [--data .data | --database postgres://…]
  npm run server -- keys revoke KEY_ID [--data .data | --database postgres://…]
  npm run server -- --help   (also after a command): this text
  --exit-with-parent: shut down (running renders requeued after --grace-ms) when standard input
    closes, i.e. when the app that started this studio quits or dies, on every OS
  --resolution: a job's video size when its request names none (params.resolution); 1080p gives
    1920×1080 at 16:9, 1080×1920 at 9:16 (--short-side 720|1080 is the same setting's old name)
  --replace: revoke every other active key with the same --label (an app replacing its own key)
  One server per --data folder: a second one exits 1 naming the first (studio.lock in the folder).`;

/** --asset-quota-mib N and --asset-max-mib kind=N,…: upload limits in MiB (the contract's defaults otherwise). */
function assetLimits(quota: string | undefined, max: string | undefined): { quotaBytes?: number; maxBytes?: Partial<Record<AssetKind, number>> } {
  const MiB = 1024 * 1024;
  const quotaMib = int(quota, 'asset-quota-mib', 1, 100_000_000);
  const maxBytes: Partial<Record<AssetKind, number>> = {};
  for (const part of max ? max.split(',') : []) {
    const [kind, n] = part.split('=');
    if (!(ASSET_KINDS as readonly string[]).includes(kind ?? '')) throw new UsageError(`--asset-max-mib: unknown kind "${kind}"; one of ${ASSET_KINDS.join(', ')}`);
    maxBytes[kind as AssetKind] = int(n ?? '', `asset-max-mib ${kind}`, 1, 1_000_000)! * MiB;
  }
  return { ...(quotaMib ? { quotaBytes: quotaMib * MiB } : {}), maxBytes };
}

/** --resolution 720p|1080p, or its old name --short-side 720|1080. */
function resolutionFlag(resolution: string | undefined, shortSide: string | undefined): Resolution | undefined {
  if (resolution !== undefined && shortSide !== undefined) throw new UsageError('give --resolution or --short-side, not both');
  const value = resolution ?? (shortSide === undefined ? undefined : `${shortSide}p`);
  if (value === undefined) return undefined;
  const parsed = Resolution.safeParse(value);
  if (!parsed.success) throw new UsageError(resolution !== undefined ? `--resolution must be one of ${RESOLUTIONS.join(', ')}` : '--short-side must be 720 or 1080');
  return parsed.data;
}

/** Tests only: a module exporting createTestEngine(), named by PRESENTER_STUDIO_TEST_ENGINE. */
async function testEngine(): Promise<RenderEngine | undefined> {
  const path = process.env.PRESENTER_STUDIO_TEST_ENGINE;
  if (!path) return undefined;
  const mod = (await import(resolve(path))) as { createTestEngine(): RenderEngine };
  return mod.createTestEngine();
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      concurrency: { type: 'string' },
      'log-level': { type: 'string' },
      'creates-per-minute': { type: 'string' },
      'active-jobs': { type: 'string' },
      'heartbeat-ms': { type: 'string' },
      'grace-ms': { type: 'string' },
      resolution: { type: 'string' },
      'short-side': { type: 'string' },
      database: { type: 'string' },
      storage: { type: 'string' },
      workers: { type: 'string' },
      'event-streams-per-user': { type: 'string' },
      'event-streams': { type: 'string' },
      'exit-with-parent': { type: 'boolean' },
      'asset-quota-mib': { type: 'string' },
      'asset-max-mib': { type: 'string' },
    },
    strict: true,
  });
  const resolution = resolutionFlag(values.resolution, values['short-side']);
  const database = dbUrl(values.database);
  const workers = int(values.workers, 'workers', 0, 64);
  if (workers === 0 && !database) throw new UsageError('--workers 0 needs --database: with SQLite no other process can render the jobs');
  const engine = await testEngine();
  const server = await startServer({
    dataDir: resolve(values.data ?? '.data'),
    ...(database ? { database } : {}),
    ...(values.storage ? { storageDir: resolve(values.storage) } : {}),
    port: int(values.port, 'port', 0, 65535) ?? 4510,
    host: values.host ?? '127.0.0.1',
    // --workers 0: no renders in this process (a fleet's workers render).
    concurrency: workers ?? int(values.concurrency, 'concurrency', 1, 64),
    logLevel: values['log-level'] ?? 'info',
    assetLimits: assetLimits(values['asset-quota-mib'], values['asset-max-mib']),
    limits: {
      createsPerMinute: int(values['creates-per-minute'], 'creates-per-minute', 1, 1_000_000) ?? LIMITS.createsPerMinute,
      activeJobsPerUser: int(values['active-jobs'], 'active-jobs', 1, 10_000_000) ?? LIMITS.activeJobsPerUser,
    },
    heartbeatMs: int(values['heartbeat-ms'], 'heartbeat-ms', 100, 3_600_000),
    eventStreams: {
      perUser: int(values['event-streams-per-user'], 'event-streams-per-user', 1, 100_000),
      total: int(values['event-streams'], 'event-streams', 1, 1_000_000),
    },
    shutdownGraceMs: int(values['grace-ms'], 'grace-ms', 0, 3_600_000),
    ...(resolution ? { resolution } : {}),
    ...(engine ? { engine } : {}),
  });
  process.stdout.write(`listening ${server.url}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1); // a second signal: do not wait any longer
    stopping = true;
    process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: `${signal}: shutting down` })}\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (values['exit-with-parent']) {
    // The parent holds our stdin's other end: it closes when the parent quits (its way to stop
    // us gracefully on every OS, Windows included) or dies (even by SIGKILL).
    process.stdin.on('data', () => undefined);
    process.stdin.once('end', () => stop('parent gone'));
    process.stdin.once('error', () => stop('parent gone'));
    process.stdin.resume();
  }
}

async function keys(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      user: { type: 'string' },
      service: { type: 'boolean' },
      label: { type: 'string' },
      replace: { type: 'boolean' },
      data: { type: 'string' },
      database: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const database = dbUrl(values.database);
  const { keys: store, close } = database
    ? await openPostgres(database).then((b) => ({ keys: b.keys, close: () => void b.close() }))
    : openKeyStore(resolve(values.data ?? '.data'));
  try {
    if (action === 'create') {
      if (values.service && values.user) throw new UsageError('a key is either --service or for one --user, not both');
      if (!values.service && !values.user) throw new UsageError('keys create needs --user ID or --service');
      if (values.user !== undefined && !LIMITS.userIdPattern.test(values.user)) {
        throw new UsageError('--user must be 1–128 characters of A-Z a-z 0-9 . _ : @ -');
      }
      if (values.replace && !values.label) throw new UsageError('--replace needs --label: it revokes the other keys with that label');
      const { record, key } = await store.create({
        kind: values.service ? 'service' : 'user',
        userId: values.user ?? null,
        label: values.label ?? null,
      });
      if (values.replace) {
        for (const k of await store.list()) {
          if (k.id !== record.id && !k.revokedAt && k.label === record.label && k.kind === record.kind && k.userId === record.userId) {
            await store.revoke(k.id);
            console.log(`revoked ${k.id} (replaced)`);
          }
        }
      }
      // The key stays the last line: scripts (and the desktop app) read it from there.
      console.log(`created ${record.kind} key ${record.id}${record.userId ? ` for user ${record.userId}` : ''}`);
      console.log('the key is shown only now; store it safely:');
      console.log(key);
    } else if (action === 'list') {
      const list = await store.list();
      if (list.length === 0) console.log('no keys');
      for (const k of list) {
        console.log([k.id, k.kind, k.userId ?? '-', k.createdAt, k.revokedAt ? `revoked ${k.revokedAt}` : 'active', k.label ?? ''].join('\t'));
      }
    } else if (action === 'revoke') {
      const id = positionals[0];
      if (!id) throw new UsageError('keys revoke needs the KEY_ID shown by keys list');
      if (!(await store.revoke(id))) throw new UsageError(`no active key ${id}`);
      console.log(`revoked ${id}`);
    } else {
      throw new UsageError(`unknown keys command ${action ?? '(none)'}`);
    }
  } finally {
    close();
  }
}

function dbUrl(flag: string | undefined): string | null {
  try {
    return databaseUrl(flag);
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
}

/** `worker`: renders jobs of a shared PostgreSQL store into a shared directory (docs/fleet.md). */
async function worker(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      database: { type: 'string' },
      storage: { type: 'string' },
      concurrency: { type: 'string' },
      'lease-ms': { type: 'string' },
      work: { type: 'string' },
      'grace-ms': { type: 'string' },
      resolution: { type: 'string' },
      'short-side': { type: 'string' },
    },
    strict: true,
  });
  const database = dbUrl(values.database);
  if (!database) throw new UsageError('worker needs --database postgres://… (or DATABASE_URL): workers share a PostgreSQL store');
  if (!values.storage) throw new UsageError('worker needs --storage DIR: the output directory the API processes serve from');
  const resolution = resolutionFlag(values.resolution, values['short-side']);
  const engine = await testEngine();
  const running = await startWorker({
    database,
    storageDir: resolve(values.storage),
    concurrency: int(values.concurrency, 'concurrency', 1, 64) ?? 1,
    leaseMs: int(values['lease-ms'], 'lease-ms', 300, 3_600_000),
    shutdownGraceMs: int(values['grace-ms'], 'grace-ms', 0, 3_600_000),
    ...(values.work ? { workDir: resolve(values.work) } : {}),
    ...(resolution ? { resolution } : {}),
    ...(engine ? { engine } : {}),
  });
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  // --help anywhere: the usage, and nothing started, opened or written.
  if (command === undefined || command === 'help' || argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  // Everything this process writes (renders in progress, caches, voice packs) is the users' data: owner-only.
  process.umask(0o077);
  if (command === 'serve') return serve(rest);
  if (command === 'worker') return worker(rest);
  if (command === 'keys') return keys(rest);
  throw new UsageError(`unknown command ${command}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (isUsageError(err)) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});
