// The presenter canvas's gestures as a pure reducer: pointer, wheel and key events in (pointer
// positions in CSS px from the canvas's top-left), the gesture state and what to do out
// (show a live placement, commit one, capture the pointer, set the cursor). PresenterCanvas
// only turns DOM events into these and applies the output, so every gesture is unit-tested
// without a browser. Hit-testing and the placement maths are shared/scene's and lib/placement's.
import { outputSize, type Avatar, type RenderParams } from '../../shared/contract/index.js';
import { avatarCentreAt, computeLayout, hitPresenter, presenterCornerAt, presenterCornerOffset, type PresenterCorner, type RigGeometry } from '../../shared/scene/index.js';
import { clampAvatar, nudge, sameAvatar, scaleFromCorner, snapCentre, wheelScale, type CornerOffset, type NudgeKey } from '../lib/placement.js';

/** Corner handles' size on screen (CSS px); also how close a pointer must be to grab one. */
export const HANDLE_PX = 9;
/** Scale step of + and − (Shift: 5×). */
export const KEY_SCALE_STEP = 0.02;

export type Drag =
  | { kind: 'move'; pointerId: number; from: Avatar; dx: number; dy: number }
  | { kind: 'scale'; pointerId: number; from: Avatar; corner: CornerOffset };

/** Null between gestures. */
export type GestureState = Drag | null;

/** What the canvas shows and how big it is on screen. */
export interface GestureView {
  templateId: string;
  /** Who speaks (absent: the template's suggestion), as a built-in's id or a rig's geometry (scene.ts `layoutPresenter`): the painted box differs. */
  presenterId?: string | RigGeometry;
  /** The params drawn now: the editor's, with the live placement (if any) in place of its avatar. */
  params: RenderParams;
  /** The editor's (saved) placement: what a cancelled gesture goes back to. */
  committed: Avatar;
  /** The canvas's size on screen, CSS px. */
  width: number;
  height: number;
}

export type GestureEvent =
  | { type: 'pointerdown'; pointerId: number; button: number; x: number; y: number }
  | { type: 'pointermove'; pointerId: number; x: number; y: number; altKey: boolean }
  | { type: 'pointerup'; pointerId: number }
  /** pointercancel, or lostpointercapture before a pointerup: the gesture is undone. */
  | { type: 'pointercancel'; pointerId: number }
  | { type: 'wheel'; deltaY: number }
  | { type: 'key'; key: string; shiftKey: boolean };

export interface LiveUpdate {
  avatar: Avatar;
  guidesX: number[];
  guidesY: number[];
}

export interface GestureOutput {
  state: GestureState;
  /** The event is the canvas's: prevent the browser's default (scrolling, text selection). */
  handled: boolean;
  /** A transient placement to show (the editor does not hear it yet). */
  live?: LiveUpdate;
  /** Drop the transient placement: the editor's is shown again. */
  dropLive?: boolean;
  /** Write this placement to the editor now (clears the live one). */
  commit?: Avatar;
  /** Write the live placement to the editor now. */
  commitLive?: boolean;
  /** Write the live placement to the editor after a pause (the wheel has no "up" event). */
  commitLiveLater?: boolean;
  /** Move the keyboard focus to the canvas (a press anywhere on it). */
  focus?: boolean;
  /** Capture the pointer so the drag follows it outside the canvas. */
  capture?: number;
  cursor?: string;
}

const NUDGE_KEYS: readonly string[] = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'] satisfies NudgeKey[];
const isNudgeKey = (key: string): key is NudgeKey => NUDGE_KEYS.includes(key);

/** A pointer position on screen (CSS px) in output (frame) pixels. */
function inFrame(view: GestureView, x: number, y: number) {
  const frame = outputSize(view.params.aspectRatio);
  return { frame, x: (x / view.width) * frame.width, y: (y / view.height) * frame.height };
}

/** What a pointer at (x, y) CSS px would grab, on the layout of the frame as drawn. */
export function grabAt(view: GestureView, x: number, y: number): { kind: 'move' } | { kind: 'scale'; corner: PresenterCorner } | null {
  const p = inFrame(view, x, y);
  const layout = computeLayout(view.templateId, view.params, p.frame, view.presenterId);
  const corner = presenterCornerAt(layout, p.x, p.y, (HANDLE_PX * p.frame.width) / view.width);
  if (corner) return { kind: 'scale', corner };
  return hitPresenter(layout, p.x, p.y) ? { kind: 'move' } : null;
}

/** The cursor over the canvas between gestures. */
export function hoverCursor(view: GestureView, x: number, y: number): string {
  const g = grabAt(view, x, y);
  if (!g) return 'default';
  if (g.kind === 'move') return 'grab';
  return g.corner.h === g.corner.v ? 'nwse-resize' : 'nesw-resize';
}

export function reduceGesture(state: GestureState, event: GestureEvent, view: GestureView): GestureOutput {
  const shown = view.params.avatar;
  switch (event.type) {
    case 'pointerdown': {
      if (event.button !== 0) return { state, handled: false };
      const g = grabAt(view, event.x, event.y);
      if (!g) return { state, handled: false, focus: true };
      const p = inFrame(view, event.x, event.y);
      const drag: Drag =
        g.kind === 'move'
          ? { kind: 'move', pointerId: event.pointerId, from: shown, dx: shown.x * p.frame.width - p.x, dy: shown.y * p.frame.height - p.y }
          : { kind: 'scale', pointerId: event.pointerId, from: shown, corner: presenterCornerOffset(computeLayout(view.templateId, view.params, p.frame, view.presenterId), shown, g.corner) };
      return { state: drag, handled: true, focus: true, capture: event.pointerId, live: { avatar: shown, guidesX: [], guidesY: [] } };
    }
    case 'pointermove': {
      if (!state) return { state, handled: false, cursor: hoverCursor(view, event.x, event.y) };
      if (event.pointerId !== state.pointerId) return { state, handled: false };
      const p = inFrame(view, event.x, event.y);
      if (state.kind === 'scale') {
        return { state, handled: true, live: { avatar: scaleFromCorner(shown, p, p.frame, state.corner), guidesX: [], guidesY: [] } };
      }
      const raw = avatarCentreAt(p.frame, p.x + state.dx, p.y + state.dy);
      const snap = event.altKey ? { ...raw, guidesX: [], guidesY: [] } : snapCentre(raw.x, raw.y, view.width, view.height);
      return { state, handled: true, cursor: 'grabbing', live: { avatar: clampAvatar({ ...shown, x: snap.x, y: snap.y }), guidesX: snap.guidesX, guidesY: snap.guidesY } };
    }
    case 'pointerup':
      if (!state || event.pointerId !== state.pointerId) return { state, handled: false };
      return { state: null, handled: true, cursor: 'grab', commitLive: true };
    case 'pointercancel': {
      if (!state || event.pointerId !== state.pointerId) return { state, handled: false };
      // Back to where the presenter stood when the gesture began, without an edit when that is the saved placement.
      const back = sameAvatar(state.from, view.committed) ? { dropLive: true } : { commit: state.from };
      return { state: null, handled: true, cursor: 'grab', ...back };
    }
    case 'wheel':
      return { state, handled: true, live: { avatar: wheelScale(shown, event.deltaY), guidesX: [], guidesY: [] }, commitLiveLater: true };
    case 'key': {
      if (isNudgeKey(event.key)) return { state, handled: true, commit: nudge(shown, event.key, event.shiftKey) };
      if (event.key === '+' || event.key === '=' || event.key === '-') {
        const step = (event.key === '-' ? -KEY_SCALE_STEP : KEY_SCALE_STEP) * (event.shiftKey ? 5 : 1);
        return { state, handled: true, commit: clampAvatar({ ...shown, scale: shown.scale + step }) };
      }
      return { state, handled: false };
    }
  }
}
