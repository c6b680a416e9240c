// Saving and rendering the open document. Autosave is a subscription to the store: an edit of
// the document (never a load) is mirrored to localStorage at once, so nothing typed is lost
// even if saving fails, and saved through drafts.save once edits pause. The render sends
// `toRenderRequest(document, title)`; what the API refuses is shown on the field, or the scene,
// it names (that scene is selected), and the draft is kept.
import type { OutboxItem } from '../../shared/bridge/index.js';
import { isSingleScene, toRenderRequest } from '../../shared/contract/document.js';
import { RenderRequest, issuesToDetails, type Job } from '../../shared/contract/index.js';
import type { VideoDocument } from '../../shared/contract/document.js';
import { call, describeError, toBridgeError } from '../lib/bridge.js';
import { documentOf, draftInput, draftSummary, readDraft } from '../lib/drafts.js';
import { sceneOfPath } from '../lib/scenes.js';
import { findVoice } from './catalogs.js';
import { clearBackup, writeBackup } from './backup.js';
import { UNTITLED } from './document.js';
import type { SliceApi } from './slice.js';

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';
/** Field path → the first problem with it. */
export type FieldErrors = Record<string, string>;

export interface EditorState {
  saveState: SaveState;
  saveError: string | null;
  submitting: boolean;
  submitError: string | null;
  /** Problems with video-wide fields (`templateId`, `params.avatar.x`, …). */
  fieldErrors: FieldErrors;
  /** Problems with a scene's fields, by scene id then field (`text`, `background.assetId`). */
  sceneErrors: Record<string, FieldErrors>;
  lastSubmit: { job: Job | null; queued: OutboxItem | null } | null;
  /** The chosen voice, when a render waits for its download (its pack is missing or failed). */
  voiceDownload: string | null;
  /** The voice's download is done: the render may go. */
  voiceInstalled(voiceId: string): void;
  saveNow(): Promise<void>;
  /**
   * Sends the open document as a job, once per state of it: a second submit of the same state
   * (a repeated shortcut, a click after it) is refused unless `again` says it is meant.
   */
  submit(again?: boolean): Promise<boolean>;
  /** Whether the document as it is now has been sent (or is being sent). */
  isSent(): boolean;
  /** Stops the autosave (a test's store, a closed window). */
  dispose(): void;
}

export const SAVE_DELAY_MS = 400;
const RETRY_DELAY_MS = 3000;

export function createEditorSlice(api: SliceApi<EditorState>): EditorState {
  const { set, get, root, store } = api;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> | null = null;
  /** Counts edits, so a save that raced a newer edit leaves the state unsaved. */
  let edits = 0;
  /** The document state last sent; edits make new states (the store never mutates one). */
  let sent: VideoDocument | null = null;
  const later = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void get().saveNow(), ms);
  };

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.document === prev.document) return;
    if (s.documentSession !== prev.documentSession) {
      // Another document was opened: nothing of it is unsaved, and nothing of the last one applies.
      clearTimeout(timer);
      clearBackup();
      sent = null;
      set({ saveState: 'saved', saveError: null, fieldErrors: {}, sceneErrors: {}, submitError: null, lastSubmit: null, voiceDownload: null });
      return;
    }
    edits++;
    writeBackup({ ...s.document, id: s.draftId });
    set({ saveState: 'unsaved', fieldErrors: {}, sceneErrors: {}, submitError: null, voiceDownload: null });
    later(SAVE_DELAY_MS);
  });

  /** Puts each problem on its field or its scene, and selects the first scene named. */
  const showErrors = (details: { path: string; message: string }[]) => {
    const { document } = root();
    const fieldErrors: FieldErrors = {};
    const sceneErrors: Record<string, FieldErrors> = {};
    let first: string | null = null;
    for (const x of details) {
      const path = x.path.replace(/^request\./, '');
      const at = sceneOfPath(path);
      const scene = at && document.scenes[at.index];
      if (scene) {
        (sceneErrors[scene.id] ??= {})[at.field] ??= x.message;
        first ??= scene.id;
      } else fieldErrors[path] ??= x.message; // the first problem per field
    }
    set({ fieldErrors, sceneErrors });
    if (first) root().selectScene(first);
  };

  /** A voice with a pack to download that is not there (missing, or its download failed). */
  const voiceNeedingDownload = async (voiceId: string) => {
    const voice = findVoice(root().catalogs.voices, voiceId);
    if (voice?.downloadBytes === undefined) return null;
    try {
      const pack = await call('voices.pack', { voiceId: voice.id });
      return pack.state === 'missing' || pack.state === 'failed' ? voice : null;
    } catch {
      return null; // its state cannot be asked (an API without packs, offline): the render API decides
    }
  };

  return {
    saveState: 'saved',
    saveError: null,
    submitting: false,
    submitError: null,
    fieldErrors: {},
    sceneErrors: {},
    lastSubmit: null,
    voiceDownload: null,
    voiceInstalled(voiceId) {
      if (get().voiceDownload === voiceId) set({ voiceDownload: null, submitError: null });
    },
    async saveNow() {
      clearTimeout(timer);
      while (saving) await saving;
      if (get().saveState === 'saved') return;
      const version = edits;
      const { document, draftId, documentSession } = root();
      set({ saveState: 'saving' });
      saving = (async () => {
        try {
          const saved = readDraft(await call('drafts.save', draftInput(documentOf(document), draftId)));
          root().drafts.upsertLocal(draftSummary(saved));
          // Another draft may have been opened while this save was in flight.
          if (documentSession !== root().documentSession) return;
          if (root().draftId === null) store.setState({ draftId: saved.id });
          if (version === edits) {
            clearBackup();
            set({ saveState: 'saved', saveError: null });
          } else {
            set({ saveState: 'unsaved' });
            later(SAVE_DELAY_MS);
          }
        } catch (e) {
          if (documentSession !== root().documentSession) return;
          set({ saveState: 'error', saveError: describeError(e) });
          later(RETRY_DELAY_MS);
        }
      })();
      await saving;
      saving = null;
    },
    isSent() {
      return sent !== null && sent === root().document;
    },
    async submit(again = false) {
      const { document: d, settings } = root();
      if (get().submitting || (!again && get().isSent())) return false;
      if (!d.templateId || !d.voiceId) {
        showErrors([...(d.templateId ? [] : [{ path: 'templateId', message: 'is required' }]), ...(d.voiceId ? [] : [{ path: 'voiceId', message: 'is required' }])]);
        set({ submitError: 'Fix the marked fields to render.' });
        return false;
      }
      if (settings.capabilities?.scenes === false && !isSingleScene(d)) {
        set({ submitError: 'This render API makes videos of one plain scene only: remove the other scenes and the scene’s own settings, or switch to an API with scenes in Settings.' });
        return false;
      }
      if (settings.capabilities?.sound === false && d.music) {
        set({ submitError: 'This render API cannot mix music: choose “No music”, or switch to an API with sound in Settings.' });
        return false;
      }
      // The draft's name names its jobs (the title extension); a default name says nothing.
      const title = d.name.trim();
      const parsed = RenderRequest.safeParse(toRenderRequest(d, title && title !== UNTITLED ? title : undefined, { presenters: settings.capabilities?.presenters !== false }));
      if (!parsed.success) {
        showErrors(issuesToDetails(parsed.error));
        set({ submitError: 'Fix the marked fields to render.' });
        return false;
      }
      set({ submitting: true, submitError: null, fieldErrors: {}, sceneErrors: {}, voiceDownload: null });
      sent = d;
      const needs = await voiceNeedingDownload(d.voiceId);
      if (needs) {
        sent = null;
        set({ submitting: false, voiceDownload: needs.id, submitError: `${needs.name} needs its voice download before it can render.` });
        return false;
      }
      try {
        const r = await call('jobs.submit', { request: parsed.data });
        set({ submitting: false, lastSubmit: r });
        return true;
      } catch (e) {
        const err = toBridgeError(e);
        if (sent === d) sent = null;
        set({ submitting: false, submitError: describeError(err) });
        showErrors(err.details ?? []);
        return false;
      }
    },
    dispose() {
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
