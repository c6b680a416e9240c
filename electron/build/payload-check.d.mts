// Types of payload-check.mjs (plain JavaScript: electron-builder loads it without a TypeScript step).
export interface PayloadTarget {
  platform: string;
  arch: string;
  /** process.versions.modules of the target Electron; N-API modules load whatever it is. */
  abi: number | string;
  electronVersion: string;
}
export interface PayloadFile {
  path: string;
  size: number;
  /** Any execute bit set. */
  executable: boolean;
}
/** A native binary in the app: a .node module, a shared library or an executable. */
export interface PayloadBinary {
  path: string;
  size: number;
  kind: 'module' | 'library' | 'executable';
  /** What its header says it is built for ('unknown' when it is none of ELF, PE, Mach-O). */
  os: string;
  arch: string;
}
export const RENDERER_ONLY: string[];
export const SYSTEM_FFMPEG: string[];
export function listFiles(root: string): PayloadFile[];
export function binaryTarget(file: string): { os: string; arch: string };
export function nativeModuleProblem(file: string, target: PayloadTarget): string | null;
export function namedTarget(path: string): { os: string; arch: string } | null;
export function checkPayload(appDir: string, target: PayloadTarget): { problems: string[]; files: PayloadFile[]; binaries: PayloadBinary[]; bytes: number };
