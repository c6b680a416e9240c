// Transient presenter placement while a pointer or wheel gesture is under way. The canvas
// subscribes to this vanilla store and redraws once per animation frame; React does not
// re-render until the gesture ends and the editor store receives the final value.
import { createStore } from 'zustand/vanilla';
import type { Avatar } from '../../shared/contract/index.js';

export interface LivePlacement {
  /** Null when no gesture is active: the committed editor value is shown. */
  avatar: Avatar | null;
  guidesX: number[];
  guidesY: number[];
}

export const livePlacement = createStore<LivePlacement>(() => ({ avatar: null, guidesX: [], guidesY: [] }));

let commitTimer: ReturnType<typeof setTimeout> | undefined;

/** Commits the live value after a pause (wheel gestures have no "up" event). */
export function commitLiveLater(commit: () => void, ms: number): void {
  clearTimeout(commitTimer);
  commitTimer = setTimeout(commit, ms);
}

/** A committed value from elsewhere (fields, keys, reset) wins over a pending live one. */
export function dropLive(): void {
  clearTimeout(commitTimer);
  if (livePlacement.getState().avatar) livePlacement.setState({ avatar: null, guidesX: [], guidesY: [] });
}
