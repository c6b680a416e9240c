// Checks a packaged app folder (<app>/resources/app or <App>.app/Contents/Resources/app) before
// it ships: every native module must load in the target Electron without a rebuild (N-API,
// built for the target OS and CPU), and nothing is shipped that has no business there (source
// maps, native build leftovers, tests, libraries the renderer bundle already contains), and
// every binary in it (.node modules, shared libraries, executables such as ffmpeg) is for the
// target OS and CPU: a package's files for another platform are refused by name as well.
// onnxruntime never ships (downloaded on first use); ffmpeg ships where the OS has no package of it.
// Used by electron-builder's afterPack hook (after-pack.cjs) and by the packaging test.
import { readdirSync, readFileSync, lstatSync, openSync, readSync, closeSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Libraries bundled into dist/renderer by vite: a copy in node_modules is dead weight. */
export const RENDERER_ONLY = ['react', 'react-dom', 'zustand', '@tanstack/react-virtual', '@tanstack/virtual-core', 'scheduler'];

const FORBIDDEN = [
  { why: 'a source map', test: (p) => p.endsWith('.map') },
  { why: 'a test file or folder', test: (p) => /(^|\/)(test|tests|__tests__)\//.test(p) || /\.(test|spec)\.[cm]?[jt]s$/.test(p) },
  { why: 'TypeScript source', test: (p) => /\.(ts|mts|cts)$/.test(p) && !/\.d\.[cm]?ts$/.test(p) },
  { why: 'a native build leftover', test: (p) => /node_modules\/(?:@[^/]+\/)?[^/]+\/(?:deps|src|obj|build\/Release\/obj\.target|build\/Release\/\.deps|build\/node_gyp_bins)\//.test(p) && nativePackage(p) },
  { why: 'a library the renderer bundle already contains', test: (p) => RENDERER_ONLY.some((m) => p.startsWith(`node_modules/${m}/`)) },
  { why: 'a native build file', test: (p) => /\.(o|obj|gyp|gypi|cc|cpp|h|hpp|mk)$/.test(p) || /(^|\/)Makefile$/.test(p) },
  { why: 'onnxruntime (the studio downloads it with the first neural voice: server/engine/speech/onnx-runtime.ts)', test: (p) => /(^|\/)node_modules\/onnxruntime-(node|common)\//.test(p) },
];

/**
 * Platforms whose packages use the distribution's ffmpeg (the deb depends on it; FFMPEG_PATH
 * overrides it): a bundled one must not ship there, and must everywhere else.
 */
export const SYSTEM_FFMPEG = ['linux'];

const PLATFORMS = ['darwin', 'linux', 'win32'];
const ARCHS = ['x64', 'arm64', 'ia32', 'arm'];
/**
 * The OS and CPU a path names as a package's target (`@ffmpeg-installer/darwin-arm64/`,
 * `canvas-linux-x64-gnu/`, `bin/napi-v6/win32/x64/`, `prebuilds/linux-arm64/`), or null.
 */
export function namedTarget(path) {
  const m = new RegExp(`(?:^|[/-])(${PLATFORMS.join('|')})[/-](${ARCHS.join('|')})(?=[/.-]|$)`).exec(path);
  return m ? { os: m[1], arch: m[2] } : null;
}

/** Shared libraries native modules load (e.g. onnxruntime's): they must match the target too. */
const SHARED_LIBRARY = /\.(so(\.\d+)*|dylib|dll)$/;

let nativeRoots = new Set();
/** Packages that carry a .node file: only their deps/ src/ obj/ folders are build leftovers. */
function nativePackage(p) {
  const m = /^(node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(p);
  return !!m && nativeRoots.has(m[1]);
}

export function listFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      else out.push({ path: relative(root, full).split(sep).join('/'), size: st.size, executable: st.isFile() && (st.mode & 0o111) !== 0 });
    }
  };
  walk(root);
  return out;
}

const MACHINES = {
  // ELF e_machine, PE Machine, Mach-O cputype
  x64: { elf: 0x3e, pe: 0x8664, macho: 0x01000007 },
  arm64: { elf: 0xb7, pe: 0xaa64, macho: 0x0100000c },
};

/** The OS and CPU a native binary is built for, read from its header. */
export function binaryTarget(file) {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(4096);
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const archOf = (field, value) => Object.entries(MACHINES).find(([, m]) => m[field] === value)?.[0] ?? `unknown(${value})`;
  if (head.readUInt32BE(0) === 0x7f454c46) return { os: 'linux', arch: archOf('elf', head.readUInt16LE(18)) };
  if (head.readUInt16LE(0) === 0x5a4d) return { os: 'win32', arch: archOf('pe', head.readUInt16LE(head.readUInt32LE(0x3c) + 4)) };
  const magic = head.readUInt32LE(0);
  if (magic === 0xfeedfacf) return { os: 'darwin', arch: archOf('macho', head.readUInt32LE(4)) };
  if (head.readUInt32BE(0) === 0xcafebabe) return { os: 'darwin', arch: 'universal' };
  return { os: 'unknown', arch: 'unknown' };
}

/**
 * Why a .node file would not load in the target Electron, or null. N-API modules export
 * napi_register_module_v1 and load in any Node or Electron; a module built against one ABI
 * exports node_register_module_v<ABI> and loads only there.
 */
export function nativeModuleProblem(file, target) {
  const bytes = readFileSync(file);
  const abi = /node_register_module_v(\d+)/.exec(bytes.toString('latin1'));
  const napi = bytes.includes('napi_register_module_v1');
  const built = binaryTarget(file);
  if (built.os !== target.platform) return `built for ${built.os}, not ${target.platform}`;
  if (built.arch !== target.arch && built.arch !== 'universal') return `built for ${built.arch}, not ${target.arch}`;
  if (napi && !abi) return null;
  if (abi && abi[1] === String(target.abi)) return null;
  return abi ? `built for Node ABI ${abi[1]}, the target Electron needs ${target.abi} (not N-API)` : 'no N-API or Node module entry point';
}

const foreign = (built, target) => built.os !== target.platform || (built.arch !== target.arch && built.arch !== 'universal');

/**
 * Everything wrong with a packaged app folder, as readable lines (empty: fine), and every
 * binary it holds (each .node module, shared library and executable, with what it is built for).
 */
export function checkPayload(appDir, target) {
  const files = listFiles(appDir);
  nativeRoots = new Set(files.filter((f) => f.path.endsWith('.node')).map((f) => /^(node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(f.path)?.[1]).filter(Boolean));
  const problems = [];
  const binaries = [];
  for (const f of files) {
    const rule = FORBIDDEN.find((r) => r.test(f.path));
    if (rule) problems.push(`${f.path}: ${rule.why} must not ship`);
    const named = namedTarget(f.path);
    if (named && foreign(named, target)) problems.push(`${f.path}: a file for ${named.os}-${named.arch} must not ship for ${target.platform}-${target.arch}`);
    const native = f.path.endsWith('.node');
    const library = SHARED_LIBRARY.test(f.path);
    if (!native && !library && !f.executable && !/\.exe$/i.test(f.path)) continue;
    const built = f.size >= 64 ? binaryTarget(join(appDir, f.path)) : { os: 'unknown', arch: 'unknown' };
    if (!native && built.os === 'unknown' && !library) continue; // a script or a text file marked executable
    binaries.push({ path: f.path, size: f.size, kind: native ? 'module' : library ? 'library' : 'executable', ...built });
    if (native) {
      const why = nativeModuleProblem(join(appDir, f.path), target);
      if (why) problems.push(`${f.path}: would not load in Electron ${target.electronVersion} on ${target.platform}-${target.arch}: ${why}`);
    } else if (foreign(built, target)) {
      problems.push(`${f.path}: ${library ? 'a library' : 'an executable'} for ${built.os}-${built.arch} cannot ${library ? 'load' : 'run'} on ${target.platform}-${target.arch}`);
    }
  }
  // One copy of each native module: a package's nested copy of another version is never what the app loads.
  const byName = new Map();
  for (const b of binaries.filter((x) => x.kind === 'module')) {
    const name = b.path.split('/').pop();
    byName.set(name, [...(byName.get(name) ?? []), b]);
  }
  for (const [name, copies] of byName) if (copies.length > 1) problems.push(`${name}: ${copies.length} copies ship (${copies.map((c) => c.path).join(', ')}), the app loads one`);
  const ffmpeg = `node_modules/@ffmpeg-installer/${target.platform}-${target.arch}/ffmpeg${target.platform === 'win32' ? '.exe' : ''}`;
  if (SYSTEM_FFMPEG.includes(target.platform)) {
    const bundled = files.filter((f) => f.path.startsWith('node_modules/@ffmpeg-installer/'));
    if (bundled.length) problems.push(`${bundled[0].path}: ffmpeg is the system's on ${target.platform} (a dependency of the package), a bundled one must not ship`);
  } else if (!files.some((f) => f.path === ffmpeg)) problems.push(`${ffmpeg} is missing: the local studio cannot encode`);
  if (!files.some((f) => f.path === 'server/cli.js')) problems.push('server/cli.js is missing: the local studio cannot start');
  if (!files.some((f) => f.path === 'dist/renderer/index.html')) problems.push('dist/renderer/index.html is missing');
  return { problems, files, binaries, bytes: files.reduce((n, f) => n + f.size, 0) };
}
