/// <reference types="vite/client" />
// The renderer's view of shared/scene: the preview draws exactly what the video frame shows
// (same layout, same art, same fonts). Presenter art is bundled by Vite; the fonts are the
// engine's own files, served beside the page under fonts/ (fontUrl), not copied into the build.
// Both load once; until a presenter's art has loaded its box is shown as a silhouette. A photo
// presenter is the engine's photo rig (photo-rigs.ts), placed by its own geometry once loaded.
import type { RenderParams, Template } from '../../shared/contract/index.js';
import {
  captionTokens,
  captionWords,
  computeLayout,
  drawBackground,
  drawFrame,
  fontUrl,
  loadPresenter,
  measureWith,
  NEUTRAL_POSE,
  paginateCaptions,
  SCENE_FONTS,
  SCRIPT_FAMILIES,
  sceneStyle,
  templateEntry,
  vectorRig,
  type BackgroundPicture,
  type CaptionView,
  type FrameLayer,
  type PresenterRig,
  type RigGeometry,
  type Rect,
  type SceneLayout,
  type SceneBrand,
  type ImageLike,
} from '../../shared/scene/index.js';
import { isPhotoPresenter, onPhotoRig, photoPresenterRig } from './photo-rigs.js';

const svgUrls = import.meta.glob('../../resources/presenters/*/*.svg', { query: '?url', import: 'default', eager: true }) as Record<string, string>;

const rigs = new Map<string, PresenterRig>();
const loading = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
let fontsLoading: Promise<void> | null = null;

/** Called whenever art or fonts finish loading, so canvases can redraw. */
export function onSceneAssets(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const ready = () => listeners.forEach((l) => l());
onPhotoRig(ready);

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((ok, fail) => {
    const img = new Image();
    img.onload = () => ok(img);
    img.onerror = () => fail(new Error(`could not load ${url}`));
    img.src = url;
  });
}

let faces: FontFace[] | null = null;

/**
 * The scene's fonts as the page's own (once). Added unloaded: the page's text (the script, the
 * caption list, job titles) has them in its font list (installUiFonts), and the browser fetches
 * one only when some text needs it; the preview canvas loads them all first (ensureFonts).
 */
function sceneFontFaces(): FontFace[] {
  faces ??= SCENE_FONTS.map((f) => {
    const face = new FontFace(f.family, `url(${fontUrl(f)})`, { weight: f.weight, style: f.style });
    document.fonts.add(face);
    return face;
  });
  return faces;
}

/**
 * Lets the app's own text use the scripts the video can show (CJK, Arabic, Hebrew, emoji) where
 * the system has no font for them (a Linux desktop without CJK fonts showed the script as boxes):
 * the scene's script families go into the CSS variable --script-fonts, before the generic family.
 */
export function installUiFonts(): void {
  if (typeof FontFace === 'undefined') return;
  sceneFontFaces();
  // Their order does not matter here: each holds only its own scripts, and the fonts before them cover Latin.
  const families = Object.values(SCRIPT_FAMILIES).map((f) => `"${f}"`);
  document.documentElement.style.setProperty('--script-fonts', [...families, 'sans-serif'].join(', '));
}

function ensureFonts(): void {
  if (fontsLoading || typeof FontFace === 'undefined') return;
  fontsLoading = Promise.all(sceneFontFaces().map((face) => face.load())).then(ready, (err: unknown) => {
    // The preview then draws with other fonts than the video; say so where a developer looks.
    console.warn(`The caption fonts did not load from ./fonts/: ${String(err)}`);
  });
}

function presenterRig(id: string): PresenterRig | null {
  ensureFonts();
  const have = rigs.get(id);
  if (have) return have;
  if (!loading.has(id)) {
    loading.set(
      id,
      loadPresenter(id, (_part, file) => loadImage(svgUrls[`../../resources/presenters/${file}`] ?? '')).then(
        (a) => {
          rigs.set(id, vectorRig(a));
          ready();
        },
        () => undefined, // the silhouette stays; the layout (and so placement) is unaffected
      ),
    );
  }
  return null;
}

/** Resolves when the given templates' art and the fonts are loaded (for thumbnails and tests). */
export async function preloadScene(templateIds: string[]): Promise<void> {
  for (const t of templateIds) presenterRig(sceneStyle(previewTemplateId(t)).presenterId);
  await Promise.all([fontsLoading, ...templateIds.map((t) => loading.get(sceneStyle(previewTemplateId(t)).presenterId))]);
}

/**
 * A template the bundled catalog lacks (one a foreign render API offers, or none chosen yet) is
 * previewed in this look; its video is whatever that API renders.
 */
const PREVIEW_FALLBACK_TEMPLATE = 'podcast-studio';

/** The bundled template the preview draws for a catalog template. */
function previewTemplateId(templateId: string | undefined): string {
  return templateId && templateEntry(templateId) ? templateId : PREVIEW_FALLBACK_TEMPLATE;
}

/** `presenter` false: a scene without one (its captions are placed as the video places them then); `brand`: the video's; `presenterId`: who speaks (absent: the template's suggestion). */
export function sceneLayout(template: Template | null, params: RenderParams, width: number, height: number, presenter = true, brand?: SceneBrand, presenterId?: string): SceneLayout {
  return computeLayout(previewTemplateId(template?.id), params, { width, height }, layoutPresenter(presenterId), presenter, brand);
}

/** Who speaks as the layout takes it: a photo presenter by its rig's geometry (while it loads, the template's). */
export function layoutPresenter(presenterId: string | undefined): string | RigGeometry | undefined {
  return isPhotoPresenter(presenterId) ? photoPresenterRig(presenterId!)?.geometry : presenterId;
}

/** The rig that draws the layout's presenter; null (the silhouette) while its art or photo loads. */
function layoutRig(layout: SceneLayout, presenterId: string | undefined): PresenterRig | null {
  if (layout.rig.kind === 'photo') return photoPresenterRig(layout.rig.id);
  return isPhotoPresenter(presenterId) ? null : presenterRig(layout.style.presenterId);
}

/** The presenter's painted box in frame pixels: what the handles frame and the pointer grabs. */
export function presenterBox(template: Template | null, params: RenderParams, width: number, height: number, presenterId?: string): Rect {
  return sceneLayout(template, params, width, height, true, undefined, presenterId).presenterBounds;
}

export interface SceneOptions {
  template: Template | null;
  params: RenderParams;
  width: number;
  height: number;
  /** Narration: the first caption page is shown as the video would show it. */
  caption?: string;
  /** The scene's own background (its picture, clip frame or page); none: the template's. */
  picture?: BackgroundPicture | null;
  /** False: a scene without the presenter. */
  presenter?: boolean;
  /** Who speaks (absent: the template's suggestion). */
  presenterId?: string;
  /** Extension `brand`: the video's brand, and its logo image once loaded. */
  brand?: SceneBrand;
  logo?: ImageLike;
  /** A rig not in the catalog (a photo presenter's looks before it is made), in place of `presenterId`'s. */
  rig?: PresenterRig;
}

export function drawScene(ctx: CanvasRenderingContext2D, o: SceneOptions): SceneLayout {
  const layout = o.rig
    ? computeLayout(previewTemplateId(o.template?.id), o.params, { width: o.width, height: o.height }, o.rig.geometry, o.presenter !== false, o.brand)
    : sceneLayout(o.template, o.params, o.width, o.height, o.presenter !== false, o.brand, o.presenterId);
  // Captions given as a file only (or none) are not drawn in the video, nor here.
  const words = o.caption && (o.params.captions ?? 'burned') === 'burned' ? captionTokens(o.caption).slice(0, 40) : [];
  let caption: CaptionView | null = null;
  if (words.length) {
    const timed = captionWords(words.map((w, i) => ({ ...w, start: i, end: i + 1 })));
    const page = paginateCaptions(layout, timed, measureWith(ctx, layout))[0];
    if (page) caption = { lines: page.lines.map((l) => l.map((i) => timed[i]!.text)), activeIndex: 0 };
  }
  const presenter = o.presenter !== false;
  // The scene's own picture goes down through the same routine the engine uses; the rest of the frame is drawFrame's.
  if (o.picture) drawBackground(ctx, layout, o.picture);
  const layers: FrameLayer[] = [...(o.picture ? [] : ['background' as const]), ...(presenter ? ['presenter' as const] : []), 'logo', 'caption'];
  drawFrame(ctx, presenter ? (o.rig ?? layoutRig(layout, o.presenterId)) : null, layout, { pose: NEUTRAL_POSE, caption }, { layers, ...(o.logo ? { logo: o.logo } : {}) });
  return layout;
}
