// @vitest-environment happy-dom
// The one studio store: scene edits, their undo and redo (only the document is in the history),
// and the autosave subscription (one save after a burst of edits, none for a load).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { blankScene } from '../../shared/contract/document.js';
import { createStudioStore, type StudioStore } from '../store/index.js';
import { SAVE_DELAY_MS } from '../store/editor.js';
import { installBridge, TEMPLATES, type Calls } from './components/support.js';

let store: StudioStore;
let calls: Calls;
const saves = () => calls.filter((c) => c.method === 'drafts.save');
const texts = () => store.getState().document.scenes.map((s) => s.text);

beforeEach(() => {
  calls = installBridge({ 'drafts.save': (d: object) => ({ ...d, id: 'd1', createdAt: '', updatedAt: '' }) });
  store = createStudioStore();
  store.setState({ catalogs: { ...store.getState().catalogs, templates: TEMPLATES } });
  const s = store.getState();
  s.loadDocument({ ...s.document, templateId: 'newsroom', scenes: ['One.', 'Two.', 'Three.'].map((t) => blankScene(t)) }, null);
});
afterEach(() => {
  store.dispose();
  vi.useRealTimers();
});

describe('studio store', () => {
  it('undo brings a deleted scene back where it was, selected; redo deletes it again', () => {
    const s = store.getState();
    const two = s.document.scenes[1]!;
    s.selectScene(two.id);
    s.deleteScene(two.id);
    expect(texts()).toEqual(['One.', 'Three.']);
    expect(store.getState().selectedSceneId).toBe(store.getState().document.scenes[1]!.id);
    store.temporal.getState().undo();
    expect(texts()).toEqual(['One.', 'Two.', 'Three.']);
    expect(store.getState().selectedSceneId).toBe(two.id);
    store.temporal.getState().redo();
    expect(texts()).toEqual(['One.', 'Three.']);
  });

  it('reorders by a step and by drop position, each one undo step', () => {
    const s = store.getState();
    const [one, , three] = s.document.scenes;
    s.moveScene(one!.id, 1);
    expect(texts()).toEqual(['Two.', 'One.', 'Three.']);
    s.moveSceneTo(three!.id, 0);
    expect(texts()).toEqual(['Three.', 'Two.', 'One.']);
    s.moveScene(three!.id, -1); // already first: nothing to undo
    store.temporal.getState().undo();
    expect(texts()).toEqual(['Two.', 'One.', 'Three.']);
    store.temporal.getState().undo();
    expect(texts()).toEqual(['One.', 'Two.', 'Three.']);
  });

  it('inserts, duplicates and adds scenes, selecting the first new one', () => {
    const s = store.getState();
    const extra = [blankScene('Page 1.'), blankScene('Page 2.')];
    s.insertScenes(extra, 1);
    expect(texts()).toEqual(['One.', 'Page 1.', 'Page 2.', 'Two.', 'Three.']);
    expect(store.getState().selectedSceneId).toBe(extra[0]!.id);
    s.duplicateScene(extra[1]!.id);
    expect(texts()[3]).toBe('Page 2.');
    expect(store.getState().document.scenes[3]!.id).not.toBe(extra[1]!.id);
    s.addScene();
    expect(texts()[4]).toBe('');
    s.updateScene(store.getState().selectedSceneId, { text: 'New.', transition: 'fade' });
    expect(store.getState().document.scenes[4]).toMatchObject({ text: 'New.', transition: 'fade' });
  });

  it('keeps jobs, settings and the UI out of the history; typing in one scene is one step', () => {
    const s = store.getState();
    s.ui.setView('jobs');
    s.jobs.selectAll(['job_1']);
    expect(store.temporal.getState().pastStates).toHaveLength(0);
    const id = s.document.scenes[0]!.id;
    for (const text of ['O', 'On', 'One', 'One more']) s.updateScene(id, { text });
    expect(store.temporal.getState().pastStates).toHaveLength(1);
    store.temporal.getState().undo();
    expect(texts()[0]).toBe('One.');
    expect(store.getState().ui.view).toBe('jobs');
  });

  it('a scene with its own placement is placed by itself; the others follow the video', () => {
    const s = store.getState();
    const [one, two] = s.document.scenes;
    s.selectScene(two!.id);
    s.updateScene(two!.id, { avatar: { scale: 0.4, x: 0.2, y: 0.6 } });
    s.setAvatar({ scale: 0.5, x: 0.3, y: 0.6 });
    expect(store.getState().document.scenes[1]!.avatar).toEqual({ scale: 0.5, x: 0.3, y: 0.6 });
    s.selectScene(one!.id);
    s.setAvatar({ scale: 0.7, x: 0.8, y: 0.5 });
    expect(store.getState().document.params.avatar).toEqual({ scale: 0.7, x: 0.8, y: 0.5 });
    expect(store.getState().document.scenes[1]!.avatar).toEqual({ scale: 0.5, x: 0.3, y: 0.6 });
  });

  it('autosave: one save after a burst of edits, none for opening a document', async () => {
    vi.useFakeTimers();
    const s = store.getState();
    const id = s.document.scenes[0]!.id;
    s.updateScene(id, { text: 'A' });
    s.updateScene(id, { text: 'AB' });
    s.update({ name: 'Launch' });
    s.moveScene(id, 1);
    expect(store.getState().editor.saveState).toBe('unsaved');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS + 50);
    expect(saves()).toHaveLength(1);
    expect(saves()[0]!.input).toMatchObject({ name: 'Launch', scenes: [{ text: 'Two.' }, { text: 'AB' }, { text: 'Three.' }] });
    expect(store.getState().editor.saveState).toBe('saved');
    expect(store.getState().draftId).toBe('d1');
    s.loadDocument({ ...store.getState().document, name: 'Other' }, 'd2');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 3);
    expect(saves()).toHaveLength(1);
    expect(store.temporal.getState().pastStates).toHaveLength(0);
  });

  it('an error naming scenes[2] selects that scene and keeps the draft', async () => {
    calls = installBridge({
      'jobs.submit': () => {
        throw { code: 'validation_failed', message: 'The request is not valid.', details: [{ path: 'request.scenes.2.background.assetId', message: 'no such asset' }] };
      },
    });
    const s = store.getState();
    s.update({ voiceId: 'en-US-Ava' });
    expect(await s.editor.submit()).toBe(false);
    const third = store.getState().document.scenes[2]!;
    expect(store.getState().selectedSceneId).toBe(third.id);
    expect(store.getState().editor.sceneErrors[third.id]).toEqual({ 'background.assetId': 'no such asset' });
    expect(texts()).toEqual(['One.', 'Two.', 'Three.']);
    expect(calls.find((c) => c.method === 'jobs.submit')?.input).toMatchObject({ request: { scenes: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }] } });
  });

  it('a single plain scene is sent as the original text request', async () => {
    calls = installBridge({ 'jobs.submit': () => ({ job: null, queued: null }) });
    const s = store.getState();
    s.loadDocument({ ...s.document, voiceId: 'en-US-Ava', scenes: [blankScene('Just one.')] }, null);
    expect(await store.getState().editor.submit()).toBe(true);
    const request = (calls.find((c) => c.method === 'jobs.submit')?.input as { request: object }).request;
    expect(request).toMatchObject({ text: 'Just one.', templateId: 'newsroom' });
    expect(request).not.toHaveProperty('scenes');
  });
});
