// The background of a scene by its kind: the template's art, or the creator's image, clip or
// document page. A new kind is one file here and one line below.
import type { SceneMedia } from '../../types.js';
import type { BackgroundRequest, BackgroundSource, OpenBackground } from './background.js';
import { openClip } from './clip.js';
import { openDocument } from './document.js';
import { openImage } from './image.js';
import { openTemplate } from './template.js';

const KINDS: Record<SceneMedia['kind'], OpenBackground> = {
  image: openImage,
  video: openClip,
  document: openDocument,
};

export function openBackground(req: BackgroundRequest): Promise<BackgroundSource> {
  return req.scene.media ? KINDS[req.scene.media.kind](req) : openTemplate(req);
}

export type { BackgroundSource } from './background.js';
export { paintTemplate } from './template.js';
