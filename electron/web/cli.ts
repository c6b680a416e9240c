// `npm run web -- [--port 5180] [--host 127.0.0.1] [--data DIR]`: the web shell. With
// RENDER_API_BASE_URL + RENDER_API_KEY (a service key) it proxies that render API; without
// them it starts the local studio itself.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { LocalStudio } from '../services/local-studio.js';
import { envProfileFrom } from '../services/profiles.js';
import { createSecretStore } from '../services/secrets.js';
import { serverCommand } from '../services/server-command.js';
import { startWebShell } from './server.js';

const root = resolve(new URL('../..', import.meta.url).pathname);

function arg(name: string, fallback: string): string {
  const argv = process.argv.slice(2);
  const i = argv.indexOf(`--${name}`);
  if (i >= 0 && argv[i + 1]) return argv[i + 1]!;
  const eq = argv.find((a) => a.startsWith(`--${name}=`));
  return eq ? eq.slice(name.length + 3) : fallback;
}

async function main() {
  const port = Number(arg('port', process.env.PORT ?? '5180'));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('--port must be a whole number between 0 and 65535');
    process.exit(2);
  }
  const host = arg('host', '127.0.0.1');
  const dataDir = resolve(arg('data', process.env.STUDIO_WEB_DATA ?? join(homedir(), '.presenter-studio', 'web')));
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const env = envProfileFrom(process.env);
  const log = (line: string) => console.log(line);
  let local: LocalStudio | null = null;
  if (!env) {
    const secrets = await createSecretStore({ dataDir });
    local = new LocalStudio({ command: serverCommand(root), dataDir: join(dataDir, 'studio'), secrets, userId: 'web-shell', log: (l) => log(`[studio] ${l}`) });
    void local.start();
  }
  const shell = await startWebShell({ port, host, root, dataDir, version, env, localStudio: local, log });
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
