// Probing an upload all the way before anything keeps it, and its JPEG thumbnail: images are
// checked by their header (size) then decoded by Skia; audio and video by ffprobe, then decoded
// by ffmpeg for the thumbnail (a frame, or the sound's waveform); documents by pdf.js (page
// count and size, page 1 drawn). A file that does not decode is a 422 with the reason.
import { readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { z } from 'zod';
import { ASSET_LIMITS, type AssetKind, type AssetMediaType } from '../../shared/contract/index.js';
import { AssetError } from './asset-error.js';
import { imageComplete, imageHeaderSize, type ImageFormat } from './image-header.js';
import { isoBoxesComplete } from './iso-media.js';
import { matroskaComplete } from './matroska.js';
import { ffmpegBin, ffprobeBin, runTool, SAFE_INPUT } from './media-tools.js';
import { OWNER_FILE_MODE } from '../storage/owner-only.js';
import { PdfError, pdfInfo, renderPdfPage } from './pdf.js';

export interface Probed {
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  pages: number | null;
}

/** Thumbnails fit inside this square. */
const THUMBNAIL_SIDE = 320;
const PROBE_MS = 20_000;
/** Decoding a whole sound for its waveform may take a while for an hour of audio. */
const DECODE_MS = 60_000;

const ISO_MEDIA_TYPES = new Set<AssetMediaType>(['video/mp4', 'video/quicktime', 'audio/mp4']);

const refuse = (message: string) => new AssetError('validation_failed', message);

const LABEL: Record<AssetMediaType, string> = {
  'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP', 'video/mp4': 'MP4', 'video/webm': 'WebM',
  'video/quicktime': 'QuickTime movie', 'audio/mpeg': 'MP3', 'audio/wav': 'WAV', 'audio/mp4': 'M4A', 'audio/ogg': 'Ogg',
  'application/pdf': 'PDF', 'font/ttf': 'TrueType font', 'font/otf': 'OpenType font', 'font/woff2': 'WOFF2 font',
};

/** Probes `path` as `mediaType` and writes its thumbnail to `thumbnailPath`. */
export async function probeAsset(path: string, kind: AssetKind, mediaType: AssetMediaType, thumbnailPath: string): Promise<Probed> {
  switch (kind) {
    case 'image':
      return probeImage(path, mediaType, thumbnailPath);
    case 'document':
      return probeDocument(path, thumbnailPath);
    case 'video':
    case 'audio':
      return probeTimed(path, kind, mediaType, thumbnailPath);
    case 'font':
      return probeFont(path, mediaType, thumbnailPath);
  }
}

/**
 * A font is parsed by Skia's own loader (the one that will draw the captions with it): bytes it
 * cannot read as a font are refused. The thumbnail is a line of text set in it.
 */
async function probeFont(path: string, mediaType: AssetMediaType, thumbnailPath: string): Promise<Probed> {
  const family = `PS Probe ${randomBytes(6).toString('hex')}`;
  const key = GlobalFonts.register(await readFile(path), family);
  if (!key) throw refuse(`the ${LABEL[mediaType]} does not parse as a font`);
  try {
    const canvas = createCanvas(THUMBNAIL_SIDE, Math.round(THUMBNAIL_SIDE * 0.5625));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#111111';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    ctx.font = `64px "${family}"`;
    ctx.fillText('Aa Bb', canvas.width / 2, canvas.height * 0.4);
    ctx.font = `32px "${family}"`;
    ctx.fillText('0123 ?!', canvas.width / 2, canvas.height * 0.75);
    await writeFile(thumbnailPath, await canvas.encode('jpeg', 85), { mode: OWNER_FILE_MODE });
  } finally {
    GlobalFonts.remove(key);
  }
  return { width: null, height: null, durationSeconds: null, pages: null };
}

function fitInside(w: number, h: number, side = THUMBNAIL_SIDE): { width: number; height: number } {
  const s = Math.min(1, side / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * s)), height: Math.max(1, Math.round(h * s)) };
}

async function probeImage(path: string, mediaType: AssetMediaType, thumbnailPath: string): Promise<Probed> {
  const format = mediaType.slice('image/'.length) as ImageFormat;
  const header = await imageHeaderSize(path, format);
  if (!header) throw refuse(`the ${LABEL[mediaType]} image's header is unreadable`);
  const { width, height } = header;
  if (width > ASSET_LIMITS.maxSide || height > ASSET_LIMITS.maxSide || width * height > ASSET_LIMITS.maxPixels) {
    throw refuse(
      `the image is ${width}×${height} pixels; at most ${ASSET_LIMITS.maxPixels / 1e6} megapixels and ${ASSET_LIMITS.maxSide} pixels a side`,
    );
  }
  if (!(await imageComplete(path, format))) throw refuse(`truncated ${LABEL[mediaType]} image (its end is missing)`);
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(await readFile(path));
  } catch (err) {
    throw refuse(`the ${LABEL[mediaType]} image does not decode (${(err as Error).message})`);
  }
  if (image.width !== width || image.height !== height) throw refuse(`the ${LABEL[mediaType]} image does not decode to the size its header states`);
  const t = fitInside(width, height);
  const canvas = createCanvas(t.width, t.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff'; // under transparent pixels (a JPEG has no alpha)
  ctx.fillRect(0, 0, t.width, t.height);
  ctx.drawImage(image, 0, 0, t.width, t.height);
  await writeFile(thumbnailPath, await canvas.encode('jpeg', 85), { mode: OWNER_FILE_MODE });
  return { width, height, durationSeconds: null, pages: null };
}

async function probeDocument(path: string, thumbnailPath: string): Promise<Probed> {
  const info = await pdfInfo(path).catch((err: unknown) => {
    throw refuse(err instanceof PdfError ? err.message : `the PDF cannot be read (${(err as Error).message})`);
  });
  // A page pdf.js cannot draw is a document the engine could not show either.
  const page = await renderPdfPage(path, 1, THUMBNAIL_SIDE, THUMBNAIL_SIDE).catch((err: unknown) => {
    throw refuse(`the PDF's first page cannot be drawn (${(err as Error).message})`);
  });
  await writeFile(thumbnailPath, await page.encode('jpeg', 85), { mode: OWNER_FILE_MODE });
  return { width: info.width, height: info.height, durationSeconds: null, pages: info.pages };
}

/** What the probe reads of ffprobe's JSON (other fields pass through unread). */
const FfStream = z.looseObject({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  /** The container's name for the codec (what is left to say when ffmpeg knows no such codec). */
  codec_tag_string: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  duration: z.string().optional(),
  disposition: z.looseObject({ attached_pic: z.number().optional() }).optional(),
});
type FfStream = z.infer<typeof FfStream>;
const FfprobeOutput = z.looseObject({ streams: z.array(FfStream).optional(), format: z.looseObject({ duration: z.string().optional() }).optional() });

/** Runs a media tool; one that is not installed makes uploads of sound and video unavailable (503). */
async function tool(bin: string, args: string[], ms: number) {
  return runTool(bin, args, ms).catch((err: NodeJS.ErrnoException) => {
    throw new AssetError('unavailable', `${bin} cannot be started (${err.code ?? err.message}); install ffmpeg or set FFMPEG_PATH and FFPROBE_PATH`);
  });
}

/** ffprobe's reading of the file; its complaint as a reason the creator understands. */

async function ffprobe(path: string, mediaType: AssetMediaType): Promise<{ streams: FfStream[]; duration: number | null }> {
  const r = await tool(ffprobeBin(), ['-v', 'error', ...SAFE_INPUT, '-print_format', 'json', '-show_format', '-show_streams', path], PROBE_MS);
  if (r.timedOut) throw refuse(`the ${LABEL[mediaType]} could not be read within ${PROBE_MS / 1000} s`);
  let parsed: z.infer<typeof FfprobeOutput> = {};
  try {
    parsed = FfprobeOutput.parse(JSON.parse(r.stdout || '{}'));
  } catch {
    // no JSON of ffprobe's shape: ffprobe failed; its exit code and stderr say why, below
  }
  if (r.code !== 0 || !parsed.streams) {
    const why = r.stderr.toLowerCase();
    if (/moov atom not found|truncat|end of file|invalid data/.test(why)) {
      throw refuse(`truncated or damaged ${LABEL[mediaType]} (${firstLine(r.stderr)})`);
    }
    throw refuse(`the ${LABEL[mediaType]} cannot be read (${firstLine(r.stderr) || `ffprobe exited with ${r.code}`})`);
  }
  const d = Number(parsed.format?.duration);
  return { streams: parsed.streams, duration: Number.isFinite(d) && d > 0 ? d : null };
}

const firstLine = (s: string) => s.split('\n').map((l) => l.trim()).find(Boolean)?.slice(0, 200) ?? '';

async function probeTimed(path: string, kind: 'video' | 'audio', mediaType: AssetMediaType, thumbnailPath: string): Promise<Probed> {
  const complete = ISO_MEDIA_TYPES.has(mediaType) ? isoBoxesComplete : mediaType === 'video/webm' ? matroskaComplete : null;
  if (complete && !(await complete(path))) throw refuse(`truncated ${LABEL[mediaType]} (the file ends inside its data)`);
  const { streams, duration } = await ffprobe(path, mediaType);
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (kind === 'video' && !video) throw refuse(`the ${LABEL[mediaType]} has no video stream`);
  if (kind === 'audio' && !audio) throw refuse(`the ${LABEL[mediaType]} has no sound`);
  if (duration === null) throw refuse(`the ${LABEL[mediaType]} has no length (truncated or damaged)`);
  // The thumbnail is also the decoding check: a frame must come out of the video, and the
  // whole sound must decode into its waveform.
  const args =
    kind === 'video'
      ? ['-ss', String(Math.min(1, duration / 2)), ...SAFE_INPUT, '-i', path, '-map', '0:v:0', '-frames:v', '1',
          '-vf', `scale=${THUMBNAIL_SIDE}:${THUMBNAIL_SIDE}:force_original_aspect_ratio=decrease`]
      : [...SAFE_INPUT, '-i', path, '-filter_complex', `[0:a:0]showwavespic=s=${THUMBNAIL_SIDE}x${Math.round(THUMBNAIL_SIDE * 0.5625)}:colors=#3b82f6,pad=iw:ih:0:0:white[w]`, '-map', '[w]', '-frames:v', '1'];
  const r = await tool(ffmpegBin(), ['-nostdin', '-v', 'error', '-threads', '2', ...args, '-q:v', '4', '-f', 'image2', '-y', thumbnailPath], DECODE_MS);
  if (r.timedOut) throw refuse(`the ${LABEL[mediaType]} could not be decoded within ${DECODE_MS / 1000} s`);
  if (r.code !== 0) {
    const why = firstLine(r.stderr);
    const stream = kind === 'video' ? video : audio;
    const codec = stream?.codec_name ?? stream?.codec_tag_string;
    if (/decoder .*not found|unsupported codec|no decoder/i.test(r.stderr)) throw refuse(`${kind} codec not supported (${codec ?? 'unknown'})`);
    throw refuse(`the ${LABEL[mediaType]} does not decode (${why || `ffmpeg exited with ${r.code}`})`);
  }
  const thumb = await readFile(thumbnailPath).catch(() => Buffer.alloc(0)); // missing: the check just below refuses it
  if (thumb.length === 0) throw refuse(kind === 'video' ? `no frame of the ${LABEL[mediaType]} decodes (truncated or damaged)` : `the ${LABEL[mediaType]}'s sound does not decode`);
  return {
    width: kind === 'video' ? (video!.width ?? null) : null,
    height: kind === 'video' ? (video!.height ?? null) : null,
    durationSeconds: Math.round(duration * 1000) / 1000,
    pages: null,
  };
}
