// @vitest-environment happy-dom
// The presenter canvas as a person uses it: pointer drags, corner handles, keys, the wheel and
// a cancelled pointer, dispatched on the canvas element, seen in the editor's placement and
// the fields. happy-dom has no layout, so the canvas's on-screen box is given (640×360 at 100,50).
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { outputSize } from '../../../shared/contract/index.js';
import { computeLayout } from '../../../shared/scene/index.js';
import { blankScene } from '../../../shared/contract/document.js';
import { PresenterCanvas } from '../../components/PresenterCanvas.js';

import { livePlacement } from '../../store/placement.js';
import { installBridge, startEditor } from './support.js';
import { useStudio } from '../../store/index.js';

const W = 640;
const H = 360;
/** Where the canvas sits in the window. */
const LEFT = 100;
const TOP = 50;

function mount() {
  installBridge({ 'drafts.save': (d: object) => ({ ...d, id: 'd1', createdAt: '', updatedAt: '' }) });
  startEditor('newsroom');
  useStudio.getState().setAvatar({ scale: 0.5, x: 0.5, y: 0.5 });
  render(<PresenterCanvas />);
  const stage = screen.getByTestId('stage');
  stage.getBoundingClientRect = () => ({ x: LEFT, y: TOP, left: LEFT, top: TOP, width: W, height: H, right: LEFT + W, bottom: TOP + H, toJSON: () => ({}) });
  return stage;
}
/** The presenter's painted box on the canvas (CSS px from its top-left), from the scene layout the video uses. */
function box() {
  const params = useStudio.getState().document.params;
  const f = outputSize(params.aspectRatio);
  const b = computeLayout('newsroom', params, f).presenterBounds;
  const k = W / f.width;
  return { left: b.x * k, top: b.y * k, right: (b.x + b.width) * k, bottom: (b.y + b.height) * k, cx: (b.x + b.width / 2) * k, cy: (b.y + b.height / 2) * k };
}
const avatar = () => useStudio.getState().document.params.avatar;
/** A pointer at (x, y) on the canvas, in window coordinates. */
const at = (x: number, y: number, extra: object = {}) => ({ pointerId: 1, button: 0, clientX: LEFT + x, clientY: TOP + y, ...extra });

beforeEach(() => {
  livePlacement.setState({ avatar: null, guidesX: [], guidesY: [] });
});

describe('presenter canvas', () => {
  it('drags the presenter: live while moving, saved to the draft and the fields on release', () => {
    const stage = mount();
    const b = box();
    fireEvent.pointerDown(stage, at(b.cx, b.cy));
    expect(document.activeElement).toBe(stage);
    fireEvent.pointerMove(stage, at(b.cx + 64, b.cy + 18, { altKey: true }));
    expect(livePlacement.getState().avatar).toMatchObject({ x: 0.6, y: 0.55 });
    expect(avatar()).toMatchObject({ x: 0.5, y: 0.5 }); // React hears the end only
    fireEvent.pointerUp(stage, at(b.cx + 64, b.cy + 18));
    expect(avatar()).toEqual({ scale: 0.5, x: 0.6, y: 0.55 });
    expect(livePlacement.getState().avatar).toBeNull();
    expect(screen.getByLabelText(/^X/)).toHaveProperty('value', '0.6');
  });

  it('resizes from a corner handle and shows the resize cursor over it', () => {
    const stage = mount();
    const b = box();
    fireEvent.pointerMove(stage, at(b.right, b.top));
    expect(stage.style.cursor).toBe('nesw-resize');
    fireEvent.pointerMove(stage, at(b.cx, b.cy));
    expect(stage.style.cursor).toBe('grab');
    fireEvent.pointerDown(stage, at(b.right, b.top));
    fireEvent.pointerMove(stage, at(b.right + 40, b.top - 40));
    fireEvent.pointerUp(stage, at(b.right + 40, b.top - 40));
    expect(avatar().scale).toBeGreaterThan(0.5);
    expect(avatar()).toMatchObject({ x: 0.5, y: 0.5 });
  });

  it('a cancelled pointer puts the presenter back', () => {
    const stage = mount();
    const b = box();
    fireEvent.pointerDown(stage, at(b.cx, b.cy));
    fireEvent.pointerMove(stage, at(b.cx + 100, b.cy + 40));
    expect(livePlacement.getState().avatar?.x).not.toBe(0.5);
    fireEvent.pointerCancel(stage, at(b.cx + 100, b.cy + 40));
    expect(livePlacement.getState().avatar).toBeNull();
    expect(avatar()).toEqual({ scale: 0.5, x: 0.5, y: 0.5 });
    // The gesture is over: later moves only hover.
    fireEvent.pointerMove(stage, at(b.cx + 150, b.cy));
    expect(livePlacement.getState().avatar).toBeNull();
  });

  it('nudges with the arrow keys and scales with + and −', () => {
    const stage = mount();
    fireEvent.keyDown(stage, { key: 'ArrowRight' });
    fireEvent.keyDown(stage, { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(stage, { key: '+' });
    expect(avatar()).toEqual({ scale: 0.52, x: 0.505, y: 0.55 });
  });

  it('scales with the wheel and saves the result after a pause', async () => {
    const stage = mount();
    fireEvent.wheel(stage, { deltaY: -200 });
    expect(livePlacement.getState().avatar?.scale).toBeGreaterThan(0.5);
    await waitFor(() => expect(avatar().scale).toBeGreaterThan(0.5));
    expect(livePlacement.getState().avatar).toBeNull();
  });

  it('drags a scene with its own placement without moving the video’s', () => {
    const stage = mount();
    const s = useStudio.getState();
    const own = blankScene('Over my slide.');
    s.insertScenes([{ ...own, avatar: { scale: 0.5, x: 0.5, y: 0.5 } }]);
    s.setAvatar({ scale: 0.5, x: 0.3, y: 0.5 }); // the scene's own: the video keeps 0.5
    expect(useStudio.getState().document.params.avatar).toEqual({ scale: 0.5, x: 0.5, y: 0.5 });
    const b = box(); // the video's placement is where the scene's was: shift to the scene's
    const dx = -0.2 * W;
    fireEvent.pointerDown(stage, at(b.cx + dx, b.cy));
    fireEvent.pointerMove(stage, at(b.cx + dx + 64, b.cy, { altKey: true }));
    fireEvent.pointerUp(stage, at(b.cx + dx + 64, b.cy));
    expect(useStudio.getState().document.scenes[1]!.avatar).toEqual({ scale: 0.5, x: 0.4, y: 0.5 });
    expect(useStudio.getState().document.params.avatar).toEqual({ scale: 0.5, x: 0.5, y: 0.5 });
    expect(screen.getByLabelText(/^X/)).toHaveProperty('value', '0.4');
  });

  it('shows the placement it drew on the scene canvas', async () => {
    const stage = mount();
    act(() => useStudio.getState().setAvatar({ scale: 0.7, x: 0.25, y: 0.5 }));
    await waitFor(() => expect(screen.getByTestId('stage-scene').dataset).toMatchObject({ x: '0.25', y: '0.5', scale: '0.7', aspectRatio: '16:9' }));
    expect(stage.getAttribute('aria-roledescription')).toBe('presenter placement');
  });
});
