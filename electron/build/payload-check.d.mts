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
}
export const RENDERER_ONLY: string[];
export function listFiles(root: string): PayloadFile[];
export function binaryTarget(file: string): { os: string; arch: string };
export function nativeModuleProblem(file: string, target: PayloadTarget): string | null;
export function checkPayload(appDir: string, target: PayloadTarget): { problems: string[]; files: PayloadFile[]; bytes: number };
