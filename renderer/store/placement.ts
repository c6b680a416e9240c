// Transient presenter placement while a pointer or wheel gesture is under way. The canvas
// subscribes to this vanilla store and redraws once per animation frame; React does not
// re-render until the gesture ends and the studio store receives the final value. Kept apart
// from the studio store on purpose: pointer-rate updates must not reach every selector, nor
// the undo history.
import { createStore } from 'zustand/vanilla';
import type { Avatar } from '../../shared/contract/index.js';

export interface LivePlacement {
  /** Null when no gesture is active: the committed value is shown. */
  avatar: Avatar | null;
  guidesX: number[];
  guidesY: number[];
  /** Commits the live value after a pause (wheel gestures have no "up" event). */
  commitLater(commit: () => void, ms: number): void;
  /** A committed value from elsewhere (fields, keys, reset) wins over a pending live one. */
  drop(): void;
}

export function createLivePlacement() {
  let commitTimer: ReturnType<typeof setTimeout> | undefined;
  return createStore<LivePlacement>((set, get) => ({
    avatar: null,
    guidesX: [],
    guidesY: [],
    commitLater(commit, ms) {
      clearTimeout(commitTimer);
      commitTimer = setTimeout(commit, ms);
    },
    drop() {
      clearTimeout(commitTimer);
      if (get().avatar) set({ avatar: null, guidesX: [], guidesY: [] });
    },
  }));
}

/** The app's one canvas gesture. */
export const livePlacement = createLivePlacement();
export const commitLiveLater = (commit: () => void, ms: number): void => livePlacement.getState().commitLater(commit, ms);
export const dropLive = (): void => livePlacement.getState().drop();
