// The open draft: script, template, voice and placement. Every change is kept in memory,
// mirrored to localStorage at once (so nothing typed is lost even if saving fails) and saved
// through drafts.save shortly after typing stops.
import { create } from 'zustand';
import type { Draft, OutboxItem } from '../../shared/bridge/index.js';
import { RenderRequest, type Avatar, type AspectRatio, type Job, type RenderParams, type Template } from '../../shared/contract/index.js';
import { issuesToDetails } from '../../shared/contract/index.js';
import { FALLBACK_PARAMS, fillParams } from '../../shared/scene/catalog.js';
import { call, describeError, toBridgeError } from '../lib/bridge.js';
import { clampAvatar } from '../lib/placement.js';
import { defaultVoice, findTemplate, useCatalogs } from './catalogs.js';
import { useDrafts } from './drafts.js';
import { dropLive } from './placement.js';
import { clearBackup, writeBackup, type EditorDraft } from './backup.js';

export { readBackup, type EditorDraft } from './backup.js';

/** What a template switch changed: the scene before it, and the aspect ratio it could not keep. */
export interface TemplateSwitch {
  templateId: string | null;
  params: RenderParams;
  aspectRatioFrom: AspectRatio | null;
}

const sameAvatar = (a: Avatar, b: Avatar) => a.scale === b.scale && a.x === b.x && a.y === b.y;

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';
export type FieldErrors = Record<string, string>;

interface EditorState {
  draft: EditorDraft;
  saveState: SaveState;
  saveError: string | null;
  submitting: boolean;
  submitError: string | null;
  fieldErrors: FieldErrors;
  lastSubmit: { job: Job | null; queued: OutboxItem | null } | null;
  update(patch: Partial<Omit<EditorDraft, 'id' | 'params'>>): void;
  /** Switches template, keeping the creator's choices where the new one allows them; says what changed. */
  setTemplate(t: Template): TemplateSwitch;
  /** Puts back a template and parameters (the Undo of a template switch). */
  restoreScene(templateId: string | null, params: RenderParams): void;
  setAspectRatio(a: AspectRatio): void;
  setAvatar(a: Avatar): void;
  resetPlacement(): void;
  open(d: Draft): void;
  newDraft(): void;
  saveNow(): Promise<void>;
  submit(): Promise<boolean>;
}

export const UNTITLED = 'Untitled script';

export function blankDraft(): EditorDraft {
  const { templates, voices } = useCatalogs.getState();
  const t = templates[0] ?? null;
  return {
    id: null,
    name: UNTITLED,
    text: '',
    templateId: t?.id ?? null,
    voiceId: defaultVoice(voices, typeof navigator === 'undefined' ? [] : navigator.languages)?.id ?? null,
    params: fillParams(t?.id, undefined, templates),
  };
}

/** Fills a draft's partial params from its template's defaults. */
export function fullParams(d: Pick<Draft, 'templateId' | 'params'>): RenderParams {
  return fillParams(d.templateId, d.params, useCatalogs.getState().templates);
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
let saving: Promise<void> | null = null;
let dirtyVersion = 0;
/** Bumped when another draft is opened, so a late save answer cannot touch the new one. */
let draftSession = 0;
const SAVE_DELAY_MS = 400;
const RETRY_DELAY_MS = 3000;

function summaryOf(d: Draft) {
  return { id: d.id, name: d.name, excerpt: d.text.slice(0, 120), updatedAt: d.updatedAt };
}

export const useEditor = create<EditorState>((set, get) => {
  const change = (draft: EditorDraft) => {
    dirtyVersion++;
    writeBackup(draft);
    set({ draft, saveState: 'unsaved', fieldErrors: {}, submitError: null });
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void get().saveNow(), SAVE_DELAY_MS);
  };
  return {
    draft: { id: null, name: UNTITLED, text: '', templateId: null, voiceId: null, params: FALLBACK_PARAMS },
    saveState: 'saved',
    saveError: null,
    submitting: false,
    submitError: null,
    fieldErrors: {},
    lastSubmit: null,
    update(patch) {
      change({ ...get().draft, ...patch });
    },
    setTemplate(t) {
      const d = get().draft;
      const before = { templateId: d.templateId, params: structuredClone(d.params) };
      if (t.id === d.templateId) return { ...before, aspectRatioFrom: null };
      // A placement the creator chose stays (any placement in range is valid for every
      // template); one still at the old template's defaults follows the new template's.
      const old = findTemplate(useCatalogs.getState().templates, d.templateId);
      const untouched = !old || sameAvatar(d.params.avatar, old.defaults.avatar);
      const keepsRatio = t.aspectRatios.includes(d.params.aspectRatio);
      const aspectRatio = keepsRatio ? d.params.aspectRatio : t.defaults.aspectRatio;
      change({ ...d, templateId: t.id, params: { aspectRatio, avatar: untouched ? { ...t.defaults.avatar } : { ...d.params.avatar } } });
      return { ...before, aspectRatioFrom: keepsRatio ? null : d.params.aspectRatio };
    },
    restoreScene(templateId, params) {
      dropLive();
      change({ ...get().draft, templateId, params: structuredClone(params) });
    },
    setAspectRatio(aspectRatio) {
      const d = get().draft;
      change({ ...d, params: { ...d.params, aspectRatio } });
    },
    setAvatar(a) {
      dropLive();
      const d = get().draft;
      change({ ...d, params: { ...d.params, avatar: clampAvatar(a) } });
    },
    resetPlacement() {
      dropLive();
      const d = get().draft;
      const t = findTemplate(useCatalogs.getState().templates, d.templateId);
      if (t) change({ ...d, params: { ...d.params, avatar: { ...t.defaults.avatar } } });
    },
    open(d) {
      clearTimeout(saveTimer);
      draftSession++;
      clearBackup();
      set({
        draft: { id: d.id, name: d.name, text: d.text, templateId: d.templateId, voiceId: d.voiceId, params: fullParams(d) },
        saveState: 'saved',
        saveError: null,
        fieldErrors: {},
        submitError: null,
        lastSubmit: null,
      });
    },
    newDraft() {
      clearTimeout(saveTimer);
      draftSession++;
      clearBackup();
      set({ draft: blankDraft(), saveState: 'saved', saveError: null, fieldErrors: {}, submitError: null, lastSubmit: null });
    },
    async saveNow() {
      clearTimeout(saveTimer);
      while (saving) await saving;
      if (get().saveState === 'saved') return;
      const version = dirtyVersion;
      const session = draftSession;
      const d = get().draft;
      set({ saveState: 'saving' });
      saving = (async () => {
        try {
          const saved = await call('drafts.save', {
            ...(d.id ? { id: d.id } : {}),
            name: d.name,
            text: d.text,
            templateId: d.templateId,
            voiceId: d.voiceId,
            params: d.params,
          });
          useDrafts.getState().upsertLocal(summaryOf(saved));
          // Another draft may have been opened while this save was in flight.
          if (session !== draftSession) return;
          if (get().draft.id === null) set({ draft: { ...get().draft, id: saved.id } });
          if (version === dirtyVersion) {
            clearBackup();
            set({ saveState: 'saved', saveError: null });
          } else {
            set({ saveState: 'unsaved' });
            saveTimer = setTimeout(() => void get().saveNow(), SAVE_DELAY_MS);
          }
        } catch (e) {
          if (session !== draftSession) return;
          set({ saveState: 'error', saveError: describeError(e) });
          saveTimer = setTimeout(() => void get().saveNow(), RETRY_DELAY_MS);
        }
      })();
      await saving;
      saving = null;
    },
    async submit() {
      const d = get().draft;
      if (get().submitting) return false;
      const title = d.name.trim();
      const parsed = RenderRequest.safeParse({
        text: d.text,
        // The draft's name names its jobs (the title extension); a default name says nothing.
        ...(title && title !== UNTITLED ? { title } : {}),
        templateId: d.templateId ?? '',
        voiceId: d.voiceId ?? '',
        params: d.params,
      });
      if (!parsed.success) {
        const details = issuesToDetails(parsed.error);
        const fieldErrors: FieldErrors = {};
        for (const x of details) fieldErrors[x.path] ??= x.message; // the first problem per field
        set({ fieldErrors, submitError: 'Fix the marked fields to render.' });
        return false;
      }
      set({ submitting: true, submitError: null, fieldErrors: {} });
      try {
        const r = await call('jobs.submit', { request: parsed.data });
        set({ submitting: false, lastSubmit: r });
        return true;
      } catch (e) {
        const err = toBridgeError(e);
        set({
          submitting: false,
          submitError: describeError(err),
          fieldErrors: Object.fromEntries((err.details ?? []).map((x) => [x.path.replace(/^request\./, ''), x.message])),
        });
        return false;
      }
    },
  };
});
