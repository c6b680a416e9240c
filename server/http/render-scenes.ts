// Extension `scenes`: a render request's scenes checked against the catalog and the caller's
// assets, and normalised into the Job's `scenes` (every field resolved). Each problem is a
// detail naming its field (`scenes[2].background.assetId`).
import type { Avatar, ErrorDetail, JobWarning, RenderParams, RenderRequest, Scene, Template, Voice } from '../../shared/contract/index.js';
import { scriptWarnings } from '../../shared/language/detect.js';
import type { AssetStore } from '../assets/asset-store.js';
import type { Catalog } from '../catalog.js';
import type { PresenterRegistry } from '../presenters/registry.js';

type SceneInput = NonNullable<RenderRequest['scenes']>[number];

export interface NormalisedScenes {
  scenes: Scene[];
  warnings: JobWarning[];
}

/** A presenter a request names (at `path`) must be a built-in one or the caller's own. */
export async function checkPresenter(presenters: PresenterRegistry, id: string | undefined, userId: string, path: string, details: ErrorDetail[]): Promise<void> {
  if (id !== undefined && !(await presenters.resolve(id, userId))) {
    details.push({ path, message: `unknown presenter "${id}"; see GET /api/presenters` });
  }
}

/**
 * Checks and normalises the scenes. `top` is the request's own template, voice and filled
 * parameters (already checked). Problems are added to `details`; the result is null then.
 */
export async function normaliseScenes(
  inputs: SceneInput[],
  top: { template: Template; voice: Voice; presenterId: string | undefined; params: RenderParams },
  ctx: { catalog: Catalog; assets: AssetStore; presenters: PresenterRegistry; userId: string },
  details: ErrorDetail[],
): Promise<NormalisedScenes | null> {
  const before = details.length;
  const scenes: Scene[] = [];
  const warnings: JobWarning[] = [];
  for (const [i, input] of inputs.entries()) {
    const at = `scenes[${i}]`;
    const template = input.templateId === undefined ? top.template : ctx.catalog.template(input.templateId);
    if (!template) details.push({ path: `${at}.templateId`, message: `unknown template "${input.templateId}"; see GET /api/templates` });
    else if (!template.aspectRatios.includes(top.params.aspectRatio)) {
      details.push({ path: `${at}.templateId`, message: `the template "${template.id}" supports ${template.aspectRatios.join(', ')}, not the video's ${top.params.aspectRatio}` });
    }
    const voice = input.voiceId === undefined ? top.voice : ctx.catalog.voice(input.voiceId);
    if (!voice) details.push({ path: `${at}.voiceId`, message: `unknown voice "${input.voiceId}"; see GET /api/voices` });
    await checkPresenter(ctx.presenters, input.presenterId, ctx.userId, `${at}.presenterId`, details);
    const background = await resolveBackground(input, at, ctx, details);
    if (!template || !voice || background === undefined) continue;
    const text = input.text.trim();
    const avatar: Avatar | null = input.avatar === null ? null : { ...top.params.avatar, ...input.avatar };
    scenes.push({
      text,
      templateId: template.id,
      voiceId: voice.id,
      presenterId: input.presenterId ?? top.presenterId ?? template.presenter.id,
      avatar,
      background,
      transition: input.transition ?? 'cut',
      ...(input.minSeconds !== undefined ? { minSeconds: input.minSeconds } : {}),
    });
    const prefix = inputs.length > 1 ? `Scene ${i + 1}: ` : '';
    for (const w of scriptWarnings(text, voice)) warnings.push({ ...w, message: prefix + w.message });
  }
  return details.length > before ? null : { scenes, warnings };
}

/** The scene's background normalised, null for none, undefined when it has a problem (in `details`). */
async function resolveBackground(
  input: SceneInput,
  at: string,
  ctx: { assets: AssetStore; userId: string },
  details: ErrorDetail[],
): Promise<Scene['background'] | undefined> {
  const bg = input.background;
  if (!bg) return null;
  const path = `${at}.background`;
  const asset = await ctx.assets.get(bg.assetId, ctx.userId);
  if (!asset) {
    details.push({ path: `${path}.assetId`, message: `no asset "${bg.assetId}" of yours; see GET /api/assets` });
    return undefined;
  }
  const n = details.length;
  if (asset.kind === 'audio') {
    details.push({ path: `${path}.assetId`, message: `"${asset.name}" is a sound; a background is a picture, a clip or a document` });
  }
  if (bg.page !== undefined && asset.kind !== 'document') {
    details.push({ path: `${path}.page`, message: `only a document has pages; "${asset.name}" is ${article(asset.kind)}` });
  } else if (bg.page !== undefined && asset.pages !== null && bg.page > asset.pages) {
    details.push({ path: `${path}.page`, message: `"${asset.name}" has ${asset.pages} page${asset.pages === 1 ? '' : 's'}` });
  }
  if (bg.trimStart !== undefined && asset.kind !== 'video') {
    details.push({ path: `${path}.trimStart`, message: `only a clip can start later; "${asset.name}" is ${article(asset.kind)}` });
  } else if (bg.trimStart !== undefined && asset.durationSeconds !== null && bg.trimStart >= asset.durationSeconds) {
    details.push({ path: `${path}.trimStart`, message: `must be less than the clip's length (${asset.durationSeconds} s)` });
  }
  if (bg.loop !== undefined && asset.kind !== 'video') {
    details.push({ path: `${path}.loop`, message: `only a clip can loop; "${asset.name}" is ${article(asset.kind)}` });
  }
  if (details.length > n) return undefined;
  return {
    assetId: asset.id,
    fit: bg.fit,
    ...(asset.kind === 'document' ? { page: bg.page ?? 1 } : {}),
    ...(bg.trimStart !== undefined ? { trimStart: bg.trimStart } : {}),
    ...(bg.loop !== undefined ? { loop: bg.loop } : {}),
  };
}

const article = (kind: string) => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
