// How to run the render API's CLI (server/) as a child. A packaged app carries it compiled to
// JavaScript at <app>/server/cli.js (see electron-builder.yml) and runs it with its own binary
// in Node mode; from a source checkout it runs server/cli.ts through tsx.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerCommand } from './local-studio.js';

export function serverCommand(root: string, opts: { execPath?: string; electron?: boolean } = {}): ServerCommand {
  const exec = opts.execPath ?? process.execPath;
  // Inside Electron, the app's own binary runs Node code with ELECTRON_RUN_AS_NODE.
  const env: NodeJS.ProcessEnv = opts.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  const compiled = join(root, 'server/cli.js');
  if (existsSync(compiled)) return { cmd: exec, args: [compiled], env, cwd: root };
  return { cmd: exec, args: ['--import', 'tsx', join(root, 'server/cli.ts')], env, cwd: root };
}
