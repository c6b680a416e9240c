// How to run the render API's CLI (server/) as a child: always on the host's own Node — the app's
// Electron binary in Node mode (ELECTRON_RUN_AS_NODE=1), both packaged and from a checkout
// (`npm start`), so developers run the path users get. A packaged app carries the CLI compiled
// to JavaScript at <app>/server/cli.js (see electron-builder.yml); a checkout runs
// server/cli.ts through tsx. The native modules it loads are N-API (libsql, @napi-rs/canvas),
// so the same files load in Node and in Electron without a rebuild.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerCommand } from './local-studio.js';

export function serverCommand(root: string, opts: { execPath?: string; electron?: boolean } = {}): ServerCommand {
  const exec = opts.execPath ?? process.execPath;
  const env: NodeJS.ProcessEnv = opts.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  const compiled = join(root, 'server/cli.js');
  if (existsSync(compiled)) return { cmd: exec, args: [compiled], env, cwd: root };
  return { cmd: exec, args: ['--import', 'tsx', join(root, 'server/cli.ts')], env, cwd: root };
}
