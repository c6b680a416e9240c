// @vitest-environment happy-dom
// Files dragged from the desktop: an overlay says where they will go while they are held over
// the window; dropped anywhere they are uploaded to the library, dropped on a scene card they
// are uploaded for that scene. Drags that carry no files (text, a card being reordered) are left alone.
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StudioApi, UploadStatus } from '../../../shared/bridge/index.js';
import { MediaDrop } from '../../components/MediaDrop.js';
import { useMedia } from '../../store/media.js';
import { installBridge } from './support.js';

let uploaded: File[];
beforeEach(() => {
  useMedia.setState(useMedia.getInitialState());
  installBridge({ 'assets.uploads': () => [], 'assets.list': () => ({ assets: [], nextCursor: null }) });
  uploaded = [];
  (window as unknown as { studio: StudioApi }).studio.upload = async (file): Promise<UploadStatus> => {
    uploaded.push(file);
    return { uploadId: `up_${uploaded.length}`, name: file.name, sizeBytes: file.size, sentBytes: 0, state: 'uploading', asset: null, error: null };
  };
});

/** A drag event as the browser fires it for files from the desktop (happy-dom has no DataTransfer). */
function drag(type: string, target: Element, files: File[], types = ['Files']) {
  const e = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(e, 'dataTransfer', { value: { types, files, dropEffect: 'none' } });
  act(() => void target.dispatchEvent(e));
  return e;
}

async function mount() {
  await act(() => useMedia.getState().loadAssets());
  render(
    <div>
      <ol aria-label="Scenes">
        <li data-scene-id="s_intro">
          <span>Intro</span>
        </li>
      </ol>
      <p>Elsewhere</p>
      <MediaDrop />
    </div>,
  );
}

describe('dropping files on the window', () => {
  it('shows the overlay while files are held over the window and uploads them on drop', async () => {
    await mount();
    const photo = new File(['p'], 'photo.png', { type: 'image/png' });
    drag('dragenter', screen.getByText('Elsewhere'), [photo]);
    const over = drag('dragover', screen.getByText('Elsewhere'), [photo]);
    expect(over.defaultPrevented).toBe(true);
    expect(screen.getByTestId('drop-overlay').textContent).toContain('Drop files to add them to your media');
    const dropped = drag('drop', screen.getByText('Elsewhere'), [photo]);
    expect(dropped.defaultPrevented).toBe(true);
    expect(screen.queryByTestId('drop-overlay')).toBeNull();
    await waitFor(() => expect(uploaded.map((f) => f.name)).toEqual(['photo.png']));
    expect(useMedia.getState().uploads.map((u) => [u.name, u.sceneId])).toEqual([['photo.png', null]]);
  });

  it('says the file becomes the scene’s background over a scene card, and uploads it for that scene', async () => {
    await mount();
    const card = screen.getByText('Intro');
    const clip = new File(['c'], 'clip.mp4', { type: 'video/mp4' });
    drag('dragenter', card, [clip]);
    drag('dragover', card, [clip]);
    expect(screen.getByTestId('drop-overlay').textContent).toContain('Drop to use as this scene’s background');
    expect(card.closest('[data-scene-id]')!.hasAttribute('data-drop-target')).toBe(true);
    drag('drop', card, [clip]);
    expect(card.closest('[data-scene-id]')!.hasAttribute('data-drop-target')).toBe(false);
    await waitFor(() => expect(useMedia.getState().uploads.map((u) => [u.name, u.sceneId])).toEqual([['clip.mp4', 's_intro']]));
  });

  it('keeps a dropped file from replacing the app when the render API has no media library', async () => {
    installBridge({ 'assets.list': () => Promise.reject({ code: 'unsupported', message: 'no media library' }) });
    await mount();
    expect(useMedia.getState().assetsSupported).toBe(false);
    const photo = new File(['p'], 'photo.png', { type: 'image/png' });
    drag('dragenter', screen.getByText('Elsewhere'), [photo]);
    expect(drag('dragover', screen.getByText('Elsewhere'), [photo]).defaultPrevented).toBe(true);
    expect(screen.queryByTestId('drop-overlay')).toBeNull();
    expect(drag('drop', screen.getByText('Elsewhere'), [photo]).defaultPrevented).toBe(true);
    expect(uploaded).toEqual([]);
  });

  it('leaves drags without files alone, and hides the overlay when the files leave the window', async () => {
    await mount();
    const text = drag('dragover', screen.getByText('Elsewhere'), [], ['text/plain']);
    expect(text.defaultPrevented).toBe(false);
    expect(screen.queryByTestId('drop-overlay')).toBeNull();
    drag('dragenter', screen.getByText('Elsewhere'), []);
    expect(screen.getByTestId('drop-overlay')).toBeTruthy();
    drag('dragleave', screen.getByText('Elsewhere'), []);
    expect(screen.queryByTestId('drop-overlay')).toBeNull();
  });
});
