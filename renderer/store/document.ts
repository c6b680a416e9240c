// The open video: its document (video-wide settings plus scenes), the draft it is saved as and
// the selected scene. Every edit here is a document edit: the undo history and the autosave
// follow `document` (see history.ts, autosave.ts), so actions only compute the next document.
import type { StoreApi } from 'zustand';
import { DOCUMENT_VERSION, blankScene, newSceneId, type DocumentScene, type VideoDocument } from '../../shared/contract/document.js';
import type { AspectRatio, Avatar, RenderParams, Template } from '../../shared/contract/index.js';
import { fillParams } from '../../shared/scene/catalog.js';
import { clampAvatar } from '../lib/placement.js';
import { moveItem } from '../lib/scenes.js';
import { defaultVoice, findTemplate } from './catalogs.js';
import { dropLive } from './placement.js';
import type { StudioState } from './index.js';

/** The document as the editor holds it: its params filled from the template's defaults. */
export type EditorDocument = Omit<VideoDocument, 'params'> & { params: RenderParams };
export type ScenePatch = Partial<Omit<DocumentScene, 'id'>>;

/** What a template switch changed: the template and params before it, and the aspect ratio it could not keep. */
export interface TemplateSwitch {
  templateId: string | null;
  params: RenderParams;
  aspectRatioFrom: AspectRatio | null;
}

export const UNTITLED = 'Untitled script';

export interface DocumentSlice {
  document: EditorDocument;
  /** The saved draft's id; null until its first save. */
  draftId: string | null;
  selectedSceneId: string;
  /** Bumped whenever another document is loaded, so an edit and a load are told apart (autosave, late answers). */
  documentSession: number;
  /** Video-wide fields. */
  update(patch: Partial<Pick<VideoDocument, 'name' | 'voiceId'>>): void;
  /** Switches template, keeping the creator's choices where the new one allows them; says what changed. */
  setTemplate(t: Template): TemplateSwitch;
  /** Puts back a template and parameters (the Undo of a template switch's notice). */
  restoreTemplate(templateId: string | null, params: RenderParams): void;
  setAspectRatio(a: AspectRatio): void;
  /** The placement the canvas edits: the selected scene's own when it has one, else the video's. */
  setAvatar(a: Avatar): void;
  /** That placement back to the template's default. */
  resetPlacement(): void;
  insertScenes(scenes: DocumentScene[], index?: number): void;
  updateScene(id: string, patch: ScenePatch): void;
  selectScene(id: string): void;
  /** A blank scene after the selected one, selected. */
  addScene(): void;
  duplicateScene(id: string): void;
  deleteScene(id: string): void;
  /** Moves a scene by `delta` places (Alt+arrows). */
  moveScene(id: string, delta: number): void;
  /** Moves a scene to `index` (drag and drop). */
  moveSceneTo(id: string, index: number): void;
  /** Opens a document (a draft, a backup, a new one): not an edit, so no undo step and no save. */
  loadDocument(doc: VideoDocument, draftId: string | null): void;
  newDocument(): void;
}

/** Fills a document's partial params from its template's defaults. */
export function fullParams(d: Pick<VideoDocument, 'templateId' | 'params'>, templates: Template[]): RenderParams {
  return fillParams(d.templateId, d.params, templates);
}

export function blankDocument(s: Pick<StudioState, 'catalogs'>): EditorDocument {
  const { templates, voices } = s.catalogs;
  const t = templates[0] ?? null;
  return {
    version: DOCUMENT_VERSION,
    name: UNTITLED,
    templateId: t?.id ?? null,
    voiceId: defaultVoice(voices, typeof navigator === 'undefined' ? [] : navigator.languages)?.id ?? null,
    params: fillParams(t?.id, undefined, templates),
    placements: {},
    presenterId: null,
    scenes: [blankScene()],
  };
}

const sameAvatar = (a: Avatar, b: Avatar) => a.scale === b.scale && a.x === b.x && a.y === b.y;

export function selectedScene(s: Pick<StudioState, 'document' | 'selectedSceneId'>): DocumentScene {
  return s.document.scenes.find((sc) => sc.id === s.selectedSceneId) ?? s.document.scenes[0]!;
}

export function createDocumentSlice(
  set: StoreApi<StudioState>['setState'],
  get: () => StudioState,
  clearHistory: () => void,
): DocumentSlice {
  const edit = (document: EditorDocument, selectedSceneId = get().selectedSceneId) => set({ document, selectedSceneId });
  const withScenes = (scenes: DocumentScene[], selectedSceneId?: string) => edit({ ...get().document, scenes }, selectedSceneId);
  const indexOf = (id: string) => get().document.scenes.findIndex((s) => s.id === id);
  const templates = () => get().catalogs.templates;
  const first = blankScene();
  return {
    document: { version: DOCUMENT_VERSION, name: UNTITLED, templateId: null, voiceId: null, params: fillParams(undefined, undefined, []), placements: {}, presenterId: null, scenes: [first] },
    draftId: null,
    selectedSceneId: first.id,
    documentSession: 0,
    update(patch) {
      edit({ ...get().document, ...patch });
    },
    setTemplate(t) {
      const d = get().document;
      const before = { templateId: d.templateId, params: structuredClone(d.params) };
      if (t.id === d.templateId) return { ...before, aspectRatioFrom: null };
      // A placement the creator chose stays (any placement in range is valid for every
      // template); one still at the old template's defaults follows the new template's.
      const old = findTemplate(templates(), d.templateId);
      const untouched = !old || sameAvatar(d.params.avatar, old.defaults.avatar);
      const keepsRatio = t.aspectRatios.includes(d.params.aspectRatio);
      const aspectRatio = keepsRatio ? d.params.aspectRatio : t.defaults.aspectRatio;
      edit({ ...d, templateId: t.id, params: { aspectRatio, avatar: untouched ? { ...t.defaults.avatar } : { ...d.params.avatar } } });
      return { ...before, aspectRatioFrom: keepsRatio ? null : d.params.aspectRatio };
    },
    restoreTemplate(templateId, params) {
      dropLive();
      edit({ ...get().document, templateId, params: structuredClone(params) });
    },
    setAspectRatio(aspectRatio) {
      const d = get().document;
      edit({ ...d, params: { ...d.params, aspectRatio } });
    },
    setAvatar(a) {
      dropLive();
      const avatar = clampAvatar(a);
      const scene = selectedScene(get());
      if (scene.avatar) get().updateScene(scene.id, { avatar });
      else edit({ ...get().document, params: { ...get().document.params, avatar } });
    },
    resetPlacement() {
      const t = findTemplate(templates(), get().document.templateId);
      if (t) get().setAvatar({ ...t.defaults.avatar });
    },
    insertScenes(scenes, index) {
      if (!scenes.length) return;
      const all = [...get().document.scenes];
      all.splice(index ?? all.length, 0, ...scenes);
      withScenes(all, scenes[0]!.id);
    },
    updateScene(id, patch) {
      withScenes(get().document.scenes.map((s) => (s.id === id ? { ...s, ...patch } : s)));
    },
    selectScene(id) {
      if (indexOf(id) >= 0 && id !== get().selectedSceneId) set({ selectedSceneId: id });
    },
    addScene() {
      get().insertScenes([blankScene()], indexOf(get().selectedSceneId) + 1);
    },
    duplicateScene(id) {
      const i = indexOf(id);
      if (i < 0) return;
      get().insertScenes([{ ...structuredClone(get().document.scenes[i]!), id: newSceneId() }], i + 1);
    },
    deleteScene(id) {
      const scenes = get().document.scenes;
      const i = indexOf(id);
      if (i < 0) return;
      // A video has at least one scene: deleting the last one leaves a blank one.
      const rest = scenes.length > 1 ? scenes.filter((s) => s.id !== id) : [blankScene()];
      const selected = id === get().selectedSceneId ? rest[Math.min(i, rest.length - 1)]!.id : get().selectedSceneId;
      withScenes(rest, selected);
    },
    moveScene(id, delta) {
      const i = indexOf(id);
      if (i >= 0) get().moveSceneTo(id, i + delta);
    },
    moveSceneTo(id, index) {
      const scenes = get().document.scenes;
      const i = indexOf(id);
      const to = Math.max(0, Math.min(scenes.length - 1, index));
      if (i < 0 || i === to) return;
      withScenes(moveItem(scenes, i, to));
    },
    loadDocument(doc, draftId) {
      dropLive();
      const document: EditorDocument = { ...doc, params: fullParams(doc, templates()) };
      set({ document, draftId, selectedSceneId: document.scenes[0]!.id, documentSession: get().documentSession + 1 });
      clearHistory();
    },
    newDocument() {
      get().loadDocument(blankDocument(get()), null);
    },
  };
}
