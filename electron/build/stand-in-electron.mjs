// Makes a stand-in Electron distribution for electron-builder (`-c.electronDist=DIR`) on machines
// where Electron's own binary cannot be downloaded (our build machines, CI). Its `electron` runs
// this machine's Node when ELECTRON_RUN_AS_NODE=1 is set (all the packaged local studio needs)
// and refuses anything else, so an app packaged with it can prove its studio, never its window.
// Usage: node electron/build/stand-in-electron.mjs DIR   (prints DIR)
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function makeStandInElectron(dir) {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const script = [
    '#!/bin/sh',
    '# Stand-in Electron (electron/build/stand-in-electron.mjs): Node mode only.',
    'if [ "$ELECTRON_RUN_AS_NODE" = "1" ]; then',
    `  exec ${JSON.stringify(process.execPath)} "$@"`,
    'fi',
    'echo "stand-in Electron: only ELECTRON_RUN_AS_NODE=1 is supported (no window can open here)" >&2',
    'exit 1',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'electron'), script);
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'LICENSE'), 'Stand-in for the Electron distribution; not for release.\n');
  writeFileSync(join(dir, 'version'), '0.0.0-stand-in');
  return dir;
}

if (process.argv[1] && import.meta.url === new URL(`file://${resolve(process.argv[1])}`).href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node electron/build/stand-in-electron.mjs DIR');
    process.exit(2);
  }
  console.log(makeStandInElectron(resolve(dir)));
}
