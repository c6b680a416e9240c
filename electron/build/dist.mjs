// `npm run dist [-- electron-builder args]`: the release build on any OS. Builds renderer, main,
// preload and web client without source maps, compiles the render API (server/, shared/) to
// JavaScript for the packaged local studio, then runs electron-builder with the given arguments
// (e.g. `--linux dir`, `--mac --arm64`, `--win`, `-c.electronDist=DIR` for a stand-in Electron).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = { ...process.env, PS_RELEASE_BUILD: '1' };
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(args) {
  const r = spawnSync(npx, args, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`dist: \`npx ${args.join(' ')}\` failed (${r.error?.message ?? `exit ${r.status}`})`);
    process.exit(r.status || 1);
  }
}

// Nothing left over from an earlier (development) build: main and preload share dist/electron.
rmSync(`${root}/dist`, { recursive: true, force: true });
for (const mode of [null, 'main', 'preload', 'web-client']) run(['vite', 'build', '--logLevel', 'warn', ...(mode ? ['--mode', mode] : [])]);
run(['tsc', '-p', 'electron/build/tsconfig.server.json']);
run(['electron-builder', '--config', 'electron-builder.yml', ...process.argv.slice(2)]);
