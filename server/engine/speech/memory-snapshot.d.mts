export interface SavedMemory {
  length: number;
  runs: { at: number; data: Uint8Array }[];
}
export function saveMemory(bytes: Uint8Array): SavedMemory;
export function restoreMemory(bytes: Uint8Array, saved: SavedMemory): void;
export function savedBytes(saved: SavedMemory): number;
