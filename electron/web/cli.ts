// `npm run web -- [flags]`: the web shell (USAGE below). With RENDER_API_BASE_URL +
// RENDER_API_KEY (a service key) it proxies that render API; without them it starts the local
// studio itself. `--help` prints the usage and exits 0 before anything is started or written.
import { readPackageInfo } from '../services/package-info.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { int, isUsageError } from '../../shared/cli-args.js';
import { LocalStudio } from '../services/local-studio.js';
import { envProfileFrom } from '../services/profiles.js';
import { createSecretStore } from '../services/secrets.js';
import { serverCommand } from '../services/server-command.js';
import { startWebShell } from './server.js';
import { DEFAULT_SHELL_LIMITS, type ShellLimits } from './shell-limits.js';

const root = resolve(new URL('../..', import.meta.url).pathname);
const L = DEFAULT_SHELL_LIMITS;

const USAGE = `usage: npm run web -- [--port 5180] [--host 127.0.0.1] [--data ~/.presenter-studio/web]
                      [--allowed-host NAME]… [--trust-proxy]
                      [--identities-per-hour ${L.identitiesPerAddressPerHour}] [--creates-per-minute ${L.createsPerMinute}] [--active-jobs ${L.activeJobs}]
                      [--event-streams-per-user ${L.eventStreamsPerUser}] [--event-streams ${L.eventStreams}]
                      [--upload-max-bytes ${L.uploadMaxBytes}] [--uploads-per-user ${L.uploadsPerUser}]
                      [--drafts-per-user ${L.draftsPerUser}] [--drafts ${L.drafts}]
  --allowed-host   a host name browsers use to reach the shell (repeatable; also WEB_ALLOWED_HOSTS=a,b);
                   localhost, 127.0.0.1, [::1] and the --host address are always allowed
  --trust-proxy    behind a reverse proxy: trust X-Forwarded-Proto / X-Forwarded-For (also WEB_TRUST_PROXY=1)
  environment: PORT, STUDIO_WEB_DATA; RENDER_API_BASE_URL + RENDER_API_KEY (a service key) to use that
  render API instead of starting the local studio`;

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h' },
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'trust-proxy': { type: 'boolean' },
      'identities-per-hour': { type: 'string' },
      'creates-per-minute': { type: 'string' },
      'active-jobs': { type: 'string' },
      'event-streams-per-user': { type: 'string' },
      'event-streams': { type: 'string' },
      'upload-max-bytes': { type: 'string' },
      'uploads-per-user': { type: 'string' },
      'drafts-per-user': { type: 'string' },
      drafts: { type: 'string' },
    },
    strict: true,
  });
  const limits: Partial<ShellLimits> = {};
  const flags = values as Record<string, string | undefined>;
  const set = (key: keyof ShellLimits, flag: string, max: number) => {
    const n = int(flags[flag], flag, 1, max);
    if (n !== undefined) limits[key] = n;
  };
  set('identitiesPerAddressPerHour', 'identities-per-hour', 1_000_000);
  set('createsPerMinute', 'creates-per-minute', 1_000_000);
  set('activeJobs', 'active-jobs', 10_000_000);
  set('eventStreamsPerUser', 'event-streams-per-user', 10_000);
  set('eventStreams', 'event-streams', 1_000_000);
  set('uploadMaxBytes', 'upload-max-bytes', 64 * 1024 ** 3);
  set('uploadsPerUser', 'uploads-per-user', 1000);
  set('draftsPerUser', 'drafts-per-user', 1_000_000);
  set('drafts', 'drafts', 100_000_000);
  const envHosts = (process.env.WEB_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  return {
    help: values.help === true,
    port: int(values.port ?? process.env.PORT ?? '5180', 'port', 0, 65535)!,
    host: values.host ?? '127.0.0.1',
    dataDir: resolve(values.data ?? process.env.STUDIO_WEB_DATA ?? join(homedir(), '.presenter-studio', 'web')),
    allowedHosts: [...envHosts, ...(values['allowed-host'] ?? [])],
    trustProxy: values['trust-proxy'] === true || process.env.WEB_TRUST_PROXY === '1',
    limits,
  };
}

async function main() {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    if (isUsageError(err)) {
      console.error(`${(err as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const { port, host, dataDir } = args;
  const { version } = readPackageInfo(root);
  const env = envProfileFrom(process.env);
  const log = (line: string) => console.log(line);
  let local: LocalStudio | null = null;
  if (!env) {
    const secrets = await createSecretStore({ dataDir });
    local = new LocalStudio({ command: serverCommand(root), dataDir: join(dataDir, 'studio'), secrets, userId: 'web-shell', log: (l) => log(`[studio] ${l}`) });
    void local.start();
  }
  const shell = await startWebShell({
    port,
    host,
    root,
    dataDir,
    version,
    env,
    localStudio: local,
    log,
    allowedHosts: args.allowedHosts,
    trustProxy: args.trustProxy,
    limits: args.limits,
  });
  console.log(`web shell ready at ${shell.url} (${env ? 'render API from the environment' : 'local studio'})`);
  const stop = async () => {
    await shell.close();
    await local?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: Error) => {
  console.error(`web shell: ${e.message}`);
  process.exit(1);
});
