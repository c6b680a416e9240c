// A still image: decoded once by Skia, scaled once to the output size.
import { readFile } from 'node:fs/promises';
import { loadImage } from '@napi-rs/canvas';
import { EngineError } from '../../types.js';
import { stillBackground, type OpenBackground } from './background.js';
import { paintPicture } from './picture.js';

export const openImage: OpenBackground = async ({ layout, scene, index }) => {
  const media = scene.media!;
  let image;
  try {
    image = await loadImage(await readFile(media.path));
  } catch (err) {
    throw new EngineError('invalid_input', `Scene ${index + 1}: its background picture cannot be read (${(err as Error).message}).`);
  }
  if (!(image.width > 0 && image.height > 0)) throw new EngineError('invalid_input', `Scene ${index + 1}: its background picture has no pixels.`);
  return stillBackground(paintPicture(layout, image, scene.background?.fit ?? 'cover'));
};
