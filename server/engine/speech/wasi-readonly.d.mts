/** Thrown by proc_exit: the C code asked to stop. */
export declare class WasiExit extends Error {
  constructor(code: number);
  code: number;
}

export interface ReadOnlyWasi {
  /** Imports for WebAssembly.instantiate; unknown calls answer ENOSYS. */
  imports: { wasi_snapshot_preview1: Record<string, (...args: (number | bigint)[]) => number> };
  /** Call once the instance exists (its memory is what the calls read and write). */
  bind(instance: { exports: WebAssembly.Exports }): void;
  /** What the module printed on stderr, newest last. */
  stderr(): string;
  /** The bytes of a file the module created (kept in memory, path relative to the mount), or null. */
  created(path: string): Buffer | null;
}

/** WASI imports with the real directory `root` preopened as `mountAs`, read-only. */
export declare function readOnlyWasi(root: string, mountAs: string, options?: { onOpen?: (path: string) => void; args?: string[]; keepCreated?: boolean }): ReadOnlyWasi;
