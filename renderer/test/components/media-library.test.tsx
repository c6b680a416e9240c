// @vitest-environment happy-dom
// The media library as a creator uses it: their files with thumbnails and facts, search and a
// kind filter, delete (and the message when a queued render still needs the file), uploads with
// progress and Cancel, a refused file saying why, and a file becoming the selected scene's
// background. Hidden against a render API without a media library.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StudioApi, StudioEvent, UploadStatus } from '../../../shared/bridge/index.js';
import type { Asset } from '../../../shared/contract/index.js';
import { MediaLibrary } from '../../components/MediaLibrary.js';
import { ASSET_IN_USE_MESSAGE, dropOnScene, connectMedia, useMedia } from '../../store/media.js';
import { useStudio as sceneStore } from '../../store/index.js';
import { installBridge, type Calls } from './support.js';

const asset = (id: string, name: string, kind: Asset['kind'], more: Partial<Asset> = {}): Asset => ({
  id, name, kind, mediaType: 'application/octet-stream', sizeBytes: 1024, width: null, height: null, durationSeconds: null, pages: null,
  createdAt: '2026-11-26T10:00:00Z', contentUrl: '', thumbnailUrl: '', ...more,
});
const PHOTO = asset('ast_photo', 'office.jpg', 'image', { sizeBytes: 1_572_864, width: 1920, height: 1080 });
const CLIP = asset('ast_clip', 'demo.mp4', 'video', { sizeBytes: 12_582_912, width: 1280, height: 720, durationSeconds: 83 });
const SONG = asset('ast_song', 'intro.mp3', 'audio', { sizeBytes: 3_145_728, durationSeconds: 30 });
const DECK = asset('ast_deck', 'Q3 review.pdf', 'document', { sizeBytes: 524_288, pages: 12 });
const LIBRARY = [PHOTO, CLIP, SONG, DECK];

let calls: Calls;
let emit: (e: StudioEvent) => void;
let uploaded: File[];

function bridge(extra: Parameters<typeof installBridge>[0] = {}) {
  calls = installBridge({
    'assets.list': ({ q, kind }: { q?: string; kind?: string }) => ({
      assets: LIBRARY.filter((a) => (!kind || a.kind === kind) && (!q || a.name.toLowerCase().includes(q.toLowerCase()))),
      nextCursor: null,
    }),
    'media.assetUrl': ({ assetId, kind }: { assetId: string; kind: string }) => ({ url: `/media/assets/${assetId}/${kind}` }),
    'assets.delete': ({ id }: { id: string }) => {
      if (id === CLIP.id) throw { code: 'asset_in_use', message: 'asset ast_clip is used by a queued job' };
      return { ok: true };
    },
    'assets.cancelUpload': () => ({ ok: true }),
    'assets.uploads': () => [],
    ...extra,
  });
  const api = (window as unknown as { studio: StudioApi }).studio;
  const listeners = new Set<(e: StudioEvent) => void>();
  api.subscribe = (l) => (listeners.add(l), () => listeners.delete(l));
  emit = (e) => act(() => listeners.forEach((l) => l(e)));
  uploaded = [];
  api.upload = async (file) => {
    uploaded.push(file);
    return status({ uploadId: `up_${uploaded.length}`, name: file.name, sizeBytes: file.size });
  };
}

const status = (s: Partial<UploadStatus> & Pick<UploadStatus, 'uploadId' | 'name'>): UploadStatus => ({
  sizeBytes: 1000, sentBytes: 0, state: 'uploading', asset: null, error: null, ...s,
});
const uploadEvent = (s: Partial<UploadStatus> & Pick<UploadStatus, 'uploadId' | 'name'>) => emit({ type: 'upload', profileId: 'local', upload: status(s) });

const card = (name: string) => screen.getByRole('listitem', { name });
const cardNames = () => within(screen.getByRole('list', { name: 'Media files' })).queryAllByRole('listitem').map((li) => li.getAttribute('aria-label'));
const selectedScene = () => sceneStore.getState().document.scenes.find((s) => s.id === sceneStore.getState().selectedSceneId)!;

async function open() {
  const off = connectMedia();
  render(<MediaLibrary />);
  await screen.findByRole('list', { name: 'Media files' });
  return off;
}

beforeEach(() => {
  useMedia.setState(useMedia.getInitialState());
  sceneStore.setState(sceneStore.getInitialState(), true);
  bridge();
});

describe('media library', () => {
  it('lists pictures, clips, audio and documents with thumbnails, kind, size and length, pages or dimensions', async () => {
    await open();
    expect(cardNames()).toEqual(['office.jpg', 'demo.mp4', 'intro.mp3', 'Q3 review.pdf']);
    expect(within(card('office.jpg')).getByText('Picture · 1.5 MB · 1920×1080')).toBeTruthy();
    expect(within(card('demo.mp4')).getByText('Clip · 12 MB · 1:23')).toBeTruthy();
    expect(within(card('intro.mp3')).getByText('Audio · 3.0 MB · 0:30')).toBeTruthy();
    expect(within(card('Q3 review.pdf')).getByText('Document · 512 KB · 12 pages')).toBeTruthy();
    await waitFor(() => expect(card('office.jpg').querySelector('img')?.getAttribute('src')).toBe('/media/assets/ast_photo/thumbnail'));
    // Audio has no picture: its glyph stands in, and no thumbnail is asked for.
    expect(card('intro.mp3').querySelector('img')).toBeNull();
    expect(calls.filter((c) => c.method === 'media.assetUrl').map((c) => (c.input as { assetId: string }).assetId).sort()).toEqual(['ast_clip', 'ast_deck', 'ast_photo']);
  });

  it('searches by name and filters by kind', async () => {
    await open();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search media' }), { target: { value: 'DEMO' } });
    await waitFor(() => expect(cardNames()).toEqual(['demo.mp4']));
    expect(calls.at(-1)).toEqual({ method: 'assets.list', input: { limit: 60, q: 'DEMO' } });

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search media' }), { target: { value: '' } });
    await waitFor(() => expect(cardNames()).toHaveLength(4));
    fireEvent.click(screen.getByRole('radio', { name: 'Documents' }));
    await waitFor(() => expect(cardNames()).toEqual(['Q3 review.pdf']));
    expect(screen.getByRole('radio', { name: 'Documents' }).getAttribute('aria-checked')).toBe('true');
    expect(calls.at(-1)).toEqual({ method: 'assets.list', input: { limit: 60, kind: 'document' } });
  });

  it('deletes a file after asking, and says so when a queued render still uses it', async () => {
    await open();
    fireEvent.click(within(card('office.jpg')).getByRole('button', { name: 'Delete office.jpg' }));
    expect(calls.some((c) => c.method === 'assets.delete')).toBe(false);
    fireEvent.click(within(card('office.jpg')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cardNames()).not.toContain('office.jpg'));
    expect(calls.filter((c) => c.method === 'assets.delete').map((c) => c.input)).toEqual([{ id: PHOTO.id }]);

    fireEvent.click(within(card('demo.mp4')).getByRole('button', { name: 'Delete demo.mp4' }));
    fireEvent.click(within(card('demo.mp4')).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ASSET_IN_USE_MESSAGE);
    expect(ASSET_IN_USE_MESSAGE).toMatch(/a queued render still uses this file/i);
    expect(cardNames()).toContain('demo.mp4');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();

    // The Delete key asks too; the question takes the focus on "Keep", and Escape keeps the file.
    fireEvent.keyDown(within(card('Q3 review.pdf')).getByRole('button', { pressed: false, name: /Q3 review\.pdf/ }), { key: 'Delete' });
    expect(document.activeElement).toBe(within(card('Q3 review.pdf')).getByRole('button', { name: 'Keep' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(within(card('Q3 review.pdf')).queryByRole('button', { name: 'Keep' })).toBeNull();

    // "Keep" leaves the file alone.
    fireEvent.click(within(card('intro.mp3')).getByRole('button', { name: 'Delete intro.mp3' }));
    fireEvent.click(within(card('intro.mp3')).getByRole('button', { name: 'Keep' }));
    expect(within(card('intro.mp3')).getByRole('button', { name: 'Delete intro.mp3' })).toBeTruthy();
  });

  it('shows each upload’s name and percent, cancels one, and lists the file another one stored', async () => {
    await open();
    const input = screen.getByTestId('media-file-input') as HTMLInputElement;
    const files = [new File(['x'.repeat(1000)], 'team.png', { type: 'image/png' }), new File(['y'.repeat(1000)], 'talk.webm', { type: 'video/webm' })];
    fireEvent.change(input, { target: { files } });
    await waitFor(() => expect(uploaded.map((f) => f.name)).toEqual(['team.png', 'talk.webm']));

    uploadEvent({ uploadId: 'up_1', name: 'team.png', sentBytes: 500 });
    uploadEvent({ uploadId: 'up_2', name: 'talk.webm', sentBytes: 250 });
    const bar = screen.getByRole('progressbar', { name: 'Uploading team.png' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByRole('progressbar', { name: 'Uploading talk.webm' }).getAttribute('aria-valuenow')).toBe('25');
    expect(screen.getByText(/^50 %/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel upload of talk.webm' }));
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Uploading talk.webm' })).toBeNull());
    expect(calls.find((c) => c.method === 'assets.cancelUpload')?.input).toEqual({ uploadId: 'up_2' });
    // The bridge's own word that it stopped changes nothing more.
    uploadEvent({ uploadId: 'up_2', name: 'talk.webm', state: 'canceled' });

    const stored = asset('ast_team', 'team.png', 'image', { width: 800, height: 600 });
    uploadEvent({ uploadId: 'up_1', name: 'team.png', sentBytes: 1000, state: 'converting' });
    expect(screen.getByText('Converting…')).toBeTruthy();
    uploadEvent({ uploadId: 'up_1', name: 'team.png', sentBytes: 1000, state: 'done', asset: stored });
    expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull();
    expect(cardNames()).toEqual(['team.png', 'office.jpg', 'demo.mp4', 'intro.mp3', 'Q3 review.pdf']);
  });

  it('keeps a file stored while the list was still on its way', async () => {
    // The list is asked for when the panel opens; the upload finishes before the answer comes.
    let answer!: () => void;
    bridge({ 'assets.list': () => new Promise((ok) => (answer = () => ok({ assets: LIBRARY, nextCursor: null }))) });
    const off = connectMedia();
    render(<MediaLibrary />);
    await waitFor(() => expect(calls.some((c) => c.method === 'assets.list')).toBe(true));
    const stored = asset('ast_team', 'team.png', 'image', { width: 800, height: 600 });
    uploadEvent({ uploadId: 'up_9', name: 'team.png', sentBytes: 1000, state: 'done', asset: stored });
    await act(async () => answer());
    await screen.findByRole('list', { name: 'Media files' });
    expect(cardNames()).toEqual(['team.png', 'office.jpg', 'demo.mp4', 'intro.mp3', 'Q3 review.pdf']);
    off();
  });

  it('does not list a photo presenter’s cut-out mask among the creator’s files', async () => {
    const mask = asset('ast_mask', 'Eileen (cut-out mask).png', 'image', { width: 512, height: 512 });
    bridge({ 'assets.list': () => ({ assets: [mask, ...LIBRARY], nextCursor: null }) });
    sceneStore.setState((s) => ({
      catalogs: { ...s.catalogs, presenters: [{ id: 'pht_eileen', name: 'Eileen', kind: 'photo', builtIn: false, thumbnailUrl: '', portrait: { assetId: PHOTO.id, maskAssetId: mask.id, landmarks: [] } }] },
    }));
    await open();
    expect(cardNames()).toEqual(['office.jpg', 'demo.mp4', 'intro.mp3', 'Q3 review.pdf']);
  });

  it('says why a file was refused and adds nothing of it', async () => {
    await open();
    fireEvent.change(screen.getByTestId('media-file-input'), { target: { files: [new File(['hello'], 'logo.png', { type: 'image/png' })] } });
    await waitFor(() => expect(uploaded).toHaveLength(1));
    uploadEvent({ uploadId: 'up_1', name: 'logo.png', state: 'failed', error: { code: 'unsupported_media', message: 'this .png is really a text file' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Not added: This .png is really a text file.');
    expect(cardNames()).toEqual(['office.jpg', 'demo.mp4', 'intro.mp3', 'Q3 review.pdf']);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss logo.png' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why when the shell refuses a file before sending it', async () => {
    await open();
    (window as unknown as { studio: StudioApi }).studio.upload = () => Promise.reject({ code: 'payload_too_large', message: 'over the 1 GiB limit' });
    fireEvent.change(screen.getByTestId('media-file-input'), { target: { files: [new File(['z'], 'huge.mov', { type: 'video/quicktime' })] } });
    expect((await screen.findByRole('alert')).textContent).toBe('Not added: Over the 1 GiB limit.');
    expect(cardNames()).toHaveLength(4);
  });

  it('puts a picture, a clip or a document page behind the selected scene', async () => {
    await open();
    fireEvent.click(within(card('office.jpg')).getByRole('button', { name: 'Use as background' }));
    expect(selectedScene().background).toEqual({ assetId: PHOTO.id, fit: 'cover' });
    fireEvent.click(within(card('Q3 review.pdf')).getByRole('button', { name: 'Use as background' }));
    expect(selectedScene().background).toEqual({ assetId: DECK.id, fit: 'cover', page: 1 });
    // Audio is heard, not seen.
    expect(within(card('intro.mp3')).queryByRole('button', { name: 'Use as background' })).toBeNull();
    // Only documents become scenes per page.
    expect(within(card('Q3 review.pdf')).getByRole('button', { name: 'Make scenes from pages' })).toBeTruthy();
    expect(within(card('office.jpg')).queryByRole('button', { name: 'Make scenes from pages' })).toBeNull();
  });

  it('makes a file dropped on a scene card that scene’s background once it is stored', async () => {
    await open();
    const sceneId = selectedScene().id;
    await act(() => dropOnScene(sceneId, [new File(['p'], 'stage.webp', { type: 'image/webp' })]));
    expect(selectedScene().background).toBeNull();
    uploadEvent({ uploadId: 'up_1', name: 'stage.webp', state: 'done', asset: asset('ast_stage', 'stage.webp', 'image') });
    expect(selectedScene().background).toEqual({ assetId: 'ast_stage', fit: 'cover' });
  });

  it('adds files with the OS dialog on the desktop, its uploads shown as they start', async () => {
    bridge({ 'app.info': () => ({ version: '1', shell: 'electron', platform: 'linux' }), 'assets.pick': () => ({ uploads: [status({ uploadId: 'up_9', name: 'keynote.pptx', state: 'converting' })] }) });
    await open();
    await waitFor(() => expect(useMedia.getState().shell).toBe('electron'));
    fireEvent.click(screen.getByRole('button', { name: 'Add files' }));
    expect(await screen.findByRole('progressbar', { name: 'Uploading keynote.pptx' })).toBeTruthy();
    expect(screen.getByText('Converting…')).toBeTruthy();
    expect(calls.some((c) => c.method === 'assets.pick')).toBe(true);
  });

  it('is hidden when the render API has no media library', async () => {
    bridge({ 'assets.list': () => Promise.reject({ code: 'unsupported', message: 'this render API does not support a media library' }) });
    render(<MediaLibrary />);
    await waitFor(() => expect(useMedia.getState().assetsSupported).toBe(false));
    expect(screen.queryByTestId('media-library')).toBeNull();
  });
});
