// How to run the render API's CLI (server/) as a child: the bundled build when present
// (dist/server/cli.mjs, what a packaged app ships), else the TypeScript source through tsx.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerCommand } from './local-studio.js';

export function serverCommand(root: string, opts: { execPath?: string; electron?: boolean } = {}): ServerCommand {
  const exec = opts.execPath ?? process.execPath;
  // Inside Electron, the app's own binary runs Node code with ELECTRON_RUN_AS_NODE.
  const env: NodeJS.ProcessEnv = opts.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  const built = join(root, 'dist/server/cli.mjs');
  if (existsSync(built)) return { cmd: exec, args: [built], env, cwd: root };
  return { cmd: exec, args: ['--import', 'tsx', join(root, 'server/cli.ts')], env, cwd: root };
}
