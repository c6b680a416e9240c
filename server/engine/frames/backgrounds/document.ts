// One page of a document, rendered once by pdf.js onto a Skia canvas at the size it is shown.
import { fitRect } from '../../../../shared/scene/index.js';
import { renderPdfPage } from '../../../assets/pdf.js';
import { EngineError } from '../../types.js';
import { stillBackground, type OpenBackground } from './background.js';
import { paintPicture } from './picture.js';

export const openDocument: OpenBackground = async ({ layout, scene, index }) => {
  const media = scene.media!;
  const fit = scene.background?.fit ?? 'cover';
  const page = scene.background?.page ?? 1;
  const { width: W, height: H } = layout.size;
  // Rendered at the size it covers (or fits) the frame with, so it is scaled by pdf.js, not after.
  const r = media.width && media.height ? fitRect(media.width, media.height, W, H, fit) : { width: W, height: H };
  let canvas;
  try {
    canvas = await renderPdfPage(media.path, page, Math.ceil(r.width), Math.ceil(r.height));
  } catch (err) {
    throw new EngineError('invalid_input', `Scene ${index + 1}: page ${page} of its document cannot be drawn (${(err as Error).message}).`);
  }
  const still = paintPicture(layout, canvas, fit);
  canvas.width = 1;
  canvas.height = 1;
  return stillBackground(still);
};
