// @vitest-environment happy-dom
// The scene strip and the scene inspector as a person uses them: add, duplicate, delete and
// bring back with Ctrl+Z (or the notice's Undo), reorder with Alt+arrows, turn the presenter
// off (the canvas draws none), and an API without scenes hides what it cannot render.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blankScene } from '../../../shared/contract/document.js';
import type { Capabilities } from '../../../shared/bridge/index.js';
import { Notices } from '../../components/Notices.js';
import { RenderBar, renderCurrent } from '../../components/RenderBar.js';
import { PresenterCanvas } from '../../components/PresenterCanvas.js';
import { SceneInspector } from '../../components/SceneInspector.js';
import { SceneStrip } from '../../components/SceneStrip.js';
import { bindHistoryKeys } from '../../lib/history-keys.js';
import { redo, undo, useSettings, useStudio, useUi } from '../../store/index.js';
import { installBridge, startEditor } from './support.js';

let offKeys: () => void;
beforeEach(() => {
  installBridge({ 'drafts.save': (d: object) => ({ ...d, id: 'd1', createdAt: '', updatedAt: '' }), 'assets.list': () => ({ assets: [], nextCursor: null }) });
  startEditor('newsroom');
  const s = useStudio.getState();
  s.loadDocument({ ...s.document, scenes: [blankScene('Welcome to the tour.'), blankScene('Here is the dashboard.')] }, null);
  useUi.setState({ notices: [] });
  offKeys = bindHistoryKeys((k) => (k === 'undo' ? undo() : redo()), () => true);
});
afterEach(() => offKeys());

const cards = () => within(screen.getByRole('list', { name: /Scenes/ })).getAllByRole('button', { name: /^Scene \d/ });
const texts = () => useStudio.getState().document.scenes.map((s) => s.text);

function mount() {
  return render(
    <>
      <PresenterCanvas />
      <SceneStrip />
      <SceneInspector />
      <Notices />
    </>,
  );
}

describe('scene strip', () => {
  it('shows one card per scene, the selected one current, with its words', () => {
    mount();
    expect(cards().map((c) => c.getAttribute('aria-label'))).toEqual(['Scene 1: Welcome to the tour.', 'Scene 2: Here is the dashboard.']);
    expect(cards()[0]!.getAttribute('aria-current')).toBe('true');
    fireEvent.click(cards()[1]!);
    expect(cards()[1]!.getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('heading', { name: 'Scene 2' })).toBeTruthy();
  });

  it('adds a scene after the selected one and duplicates one', () => {
    mount();
    fireEvent.click(screen.getByRole('button', { name: 'Add scene' }));
    expect(texts()).toEqual(['Welcome to the tour.', '', 'Here is the dashboard.']);
    expect(cards()[1]!.getAttribute('aria-current')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate scene 3' }));
    expect(texts()).toEqual(['Welcome to the tour.', '', 'Here is the dashboard.', 'Here is the dashboard.']);
    expect(cards()).toHaveLength(4);
  });

  it('deletes a scene, and Ctrl+Z brings it back; the notice’s Undo does too', () => {
    mount();
    fireEvent.click(screen.getByRole('button', { name: 'Delete scene 1' }));
    expect(texts()).toEqual(['Here is the dashboard.']);
    expect(screen.getByText('Deleted scene 1.')).toBeTruthy();
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(texts()).toEqual(['Welcome to the tour.', 'Here is the dashboard.']);
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true, shiftKey: true });
    expect(texts()).toEqual(['Here is the dashboard.']);
    fireEvent.click(screen.getAllByRole('button', { name: 'Undo' }).at(-1)!);
    expect(texts()).toEqual(['Welcome to the tour.', 'Here is the dashboard.']);
  });

  it('leaves Ctrl+Z to a text field while typing in it', () => {
    render(
      <>
        <SceneStrip />
        <input aria-label="Some text" />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete scene 2' }));
    fireEvent.keyDown(screen.getByLabelText('Some text'), { key: 'z', ctrlKey: true });
    expect(texts()).toEqual(['Welcome to the tour.']);
  });

  it('moves the selected scene with Alt+arrows, keeping it selected and focused', async () => {
    mount();
    cards()[0]!.focus();
    fireEvent.keyDown(cards()[0]!, { key: 'ArrowDown', altKey: true });
    expect(texts()).toEqual(['Here is the dashboard.', 'Welcome to the tour.']);
    expect(cards()[1]!.getAttribute('aria-current')).toBe('true');
    fireEvent.keyDown(cards()[1]!, { key: 'ArrowLeft', altKey: true });
    expect(texts()).toEqual(['Welcome to the tour.', 'Here is the dashboard.']);
    // Without Alt, arrows choose another scene.
    fireEvent.keyDown(cards()[0]!, { key: 'ArrowRight' });
    expect(cards()[1]!.getAttribute('aria-current')).toBe('true');
    await act(() => new Promise((r) => requestAnimationFrame(r)));
    expect(document.activeElement).toBe(cards()[1]);
  });

  it('turns the presenter off for a scene: the canvas draws none, the card says so', async () => {
    mount();
    fireEvent.click(screen.getByLabelText('Presenter in this scene'));
    expect(useStudio.getState().document.scenes[0]!.presenter).toBe(false);
    expect(screen.getByTestId('presenter-off')).toBeTruthy();
    expect(screen.queryByLabelText(/^X/)).toBeNull();
    expect(cards()[0]!.getAttribute('aria-label')).toContain('no presenter');
    await act(() => new Promise((r) => requestAnimationFrame(r)));
    expect(screen.getByTestId('stage-scene').dataset.presenter).toBe('false');
  });

  it('sets the transition in and a minimum length', () => {
    mount();
    fireEvent.click(cards()[1]!);
    fireEvent.click(screen.getByRole('radio', { name: 'Fade' }));
    fireEvent.change(screen.getByLabelText('Minimum length in seconds'), { target: { value: '6' } });
    expect(useStudio.getState().document.scenes[1]).toMatchObject({ transition: 'fade', minSeconds: 6 });
    expect(within(cards()[1]!).getByText('Fade')).toBeTruthy();
  });

  it('shows a problem the render API names on a scene on that scene, and keeps the draft', async () => {
    installBridge({
      'jobs.submit': () => {
        throw { code: 'validation_failed', message: 'The request is not valid.', details: [{ path: 'request.scenes.1.background.assetId', message: 'names no asset of yours' }] };
      },
    });
    useStudio.getState().update({ voiceId: 'en-US-Ava' });
    render(
      <>
        <SceneStrip />
        <SceneInspector />
        <RenderBar />
      </>,
    );
    await act(() => renderCurrent());
    expect(cards()[1]!.getAttribute('aria-current')).toBe('true');
    expect(cards()[1]!.getAttribute('aria-label')).toContain('has a problem');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Background: names no asset of yours.');
    expect(texts()).toEqual(['Welcome to the tour.', 'Here is the dashboard.']);
  });

  it('hides adding scenes and scene settings against an API without scenes', () => {
    const none = { scenes: false, assets: false } as Capabilities;
    useSettings.setState({ capabilities: none });
    mount();
    expect(screen.queryByRole('button', { name: 'Add scene' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Duplicate/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: /^Scene \d/ })).toBeNull();
    act(() => useStudio.getState().deleteScene(useStudio.getState().document.scenes[1]!.id));
    expect(screen.queryByRole('list', { name: /Scenes/ })).toBeNull();
  });
});
