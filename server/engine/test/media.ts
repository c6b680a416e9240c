// Test helpers that look at real media: ffprobe, decoded frames (raw RGB from ffmpeg),
// pixel diffs and a pitch estimate of WAV audio.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Rect } from '../../../shared/scene/index.js';

const ffprobeBin = process.env.FFPROBE_PATH ?? 'ffprobe';
const ffmpegBin = process.env.FFMPEG_PATH ?? 'ffmpeg';

export interface Probe {
  video: { codec: string; width: number; height: number; fps: number; pixFmt: string; frames: number };
  audio: { codec: string } | null;
  duration: number;
  faststart: boolean;
}

export function probe(file: string): Probe {
  const out = execFileSync(ffprobeBin, [
    '-v', 'error', '-count_packets', '-show_entries',
    'stream=codec_type,codec_name,width,height,r_frame_rate,pix_fmt,nb_read_packets:format=duration', '-of', 'json', file,
  ]).toString();
  const j = JSON.parse(out) as {
    streams: { codec_type: string; codec_name: string; width?: number; height?: number; r_frame_rate: string; pix_fmt?: string; nb_read_packets?: string }[];
    format: { duration: string };
  };
  const v = j.streams.find((s) => s.codec_type === 'video')!;
  const a = j.streams.find((s) => s.codec_type === 'audio');
  const [n, d] = v.r_frame_rate.split('/').map(Number) as [number, number];
  // +faststart puts the moov atom (the index) before mdat (the media data).
  const bytes = readFileSync(file);
  return {
    video: { codec: v.codec_name, width: v.width!, height: v.height!, fps: n / d, pixFmt: v.pix_fmt!, frames: Number(v.nb_read_packets) },
    audio: a ? { codec: a.codec_name } : null,
    duration: Number(j.format.duration),
    faststart: bytes.indexOf('moov') >= 0 && bytes.indexOf('moov') < bytes.indexOf('mdat'),
  };
}

/** Integrated loudness (LUFS) and true peak (dBTP) of a file's audio, as ffmpeg's EBU R128 meter reads them. */
export function loudness(file: string): { lufs: number; truePeak: number } {
  // The meter reports on stderr.
  const out = execFileSync('sh', ['-c', '"$0" -hide_banner -nostats -i "$1" -map 0:a -af ebur128=peak=true -f null - 2>&1', ffmpegBin, file]).toString();
  const summary = out.slice(out.lastIndexOf('Summary:'));
  const lufs = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  const peak = /Peak:\s+(-?[\d.]+) dBFS/.exec(summary);
  if (!lufs || !peak) throw new Error(`No loudness summary from ffmpeg: ${summary.slice(0, 200)}`);
  return { lufs: Number(lufs[1]), truePeak: Number(peak[1]) };
}

export interface Frame {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel. */
  rgb: Buffer;
}

/** Decodes frames [from, from+count) of a video to raw RGB, optionally only a crop of each. */
export function decodeFrames(file: string, width: number, height: number, from = 0, count = 1, crop?: Rect): Frame[] {
  const filters = [`select=between(n\\,${from}\\,${from + count - 1})`];
  if (crop) {
    if ([crop.x, crop.y, crop.width, crop.height].some((v) => v % 2)) throw new Error('crop a yuv420p video on even pixels');
    filters.push(`crop=${crop.width}:${crop.height}:${crop.x}:${crop.y}`);
    width = crop.width;
    height = crop.height;
  }
  const raw = execFileSync(
    ffmpegBin,
    ['-v', 'error', '-i', file, '-vf', filters.join(','), '-vsync', '0', '-frames:v', String(count), '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { maxBuffer: 1 << 30 },
  );
  const size = width * height * 3;
  const frames: Frame[] = [];
  for (let o = 0; o + size <= raw.length; o += size) frames.push({ width, height, rgb: raw.subarray(o, o + size) });
  return frames;
}

/**
 * Bounding box of pixels where two frames differ by more than `threshold` (sum over RGB),
 * looking only inside `within` (default: everywhere) and outside `exclude`.
 */
export function diffBounds(a: Frame, bRgba: ArrayLike<number>, threshold: number, exclude?: Rect, within?: Rect): Rect | null {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  const w = within ?? { x: 0, y: 0, width: a.width, height: a.height };
  for (let y = Math.max(0, Math.floor(w.y)); y < Math.min(a.height, w.y + w.height); y++) {
    for (let x = Math.max(0, Math.floor(w.x)); x < Math.min(a.width, w.x + w.width); x++) {
      if (exclude && x >= exclude.x && x < exclude.x + exclude.width && y >= exclude.y && y < exclude.y + exclude.height) continue;
      const i = (y * a.width + x) * 3;
      const j = (y * a.width + x) * 4;
      const d = Math.abs(a.rgb[i]! - bRgba[j]!) + Math.abs(a.rgb[i + 1]! - bRgba[j + 1]!) + Math.abs(a.rgb[i + 2]! - bRgba[j + 2]!);
      if (d > threshold) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 + 1 - x0, height: y1 + 1 - y0 };
}

/** Mean absolute RGB difference of a rectangle between a decoded frame and an RGBA image of the same size. */
export function regionDiff(a: Frame, bRgba: ArrayLike<number>, r: Rect): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.max(0, Math.floor(r.y)); y < Math.min(a.height, r.y + r.height); y++) {
    for (let x = Math.max(0, Math.floor(r.x)); x < Math.min(a.width, r.x + r.width); x++) {
      const i = (y * a.width + x) * 3;
      const j = (y * a.width + x) * 4;
      sum += Math.abs(a.rgb[i]! - bRgba[j]!) + Math.abs(a.rgb[i + 1]! - bRgba[j + 1]!) + Math.abs(a.rgb[i + 2]! - bRgba[j + 2]!);
      n += 3;
    }
  }
  return n ? sum / n : 0;
}

/** Median fundamental frequency (Hz) of voiced stretches of a 16-bit mono WAV, by autocorrelation. */
export function medianPitch(wav: Buffer): number {
  const rate = wav.readUInt32LE(24);
  const dataAt = wav.indexOf('data') + 8;
  const s = new Int16Array(wav.buffer.slice(wav.byteOffset + dataAt, wav.byteOffset + wav.length - ((wav.length - dataAt) % 2)));
  const win = 1024;
  const minLag = Math.floor(rate / 400);
  const maxLag = Math.floor(rate / 60);
  const f0s: number[] = [];
  for (let o = 0; o + win + maxLag < s.length; o += win / 2) {
    let energy = 0;
    for (let i = 0; i < win; i++) energy += s[o + i]! * s[o + i]!;
    if (energy / win < 500 * 500) continue; // silence or unvoiced noise
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let c = 0;
      let e2 = 0;
      for (let i = 0; i < win; i++) {
        c += s[o + i]! * s[o + i + lag]!;
        e2 += s[o + i + lag]! * s[o + i + lag]!;
      }
      const r = c / Math.sqrt(energy * e2 + 1);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.6) f0s.push(rate / bestLag);
  }
  f0s.sort((a, b) => a - b);
  return f0s[Math.floor(f0s.length / 2)] ?? 0;
}

/** Pids of ffmpeg processes whose parent is this process (read from /proc: no ps needed). */
export function childFfmpegPids(): number[] {
  return childPids('ffmpeg');
}

/** Live child processes of this process running `name`. */
export function childPids(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // "pid (comm) state ppid ...": comm may contain spaces, so split after the last ')'.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (comm === name && Number(ppid) === process.pid && state !== 'Z') pids.push(Number(entry));
  }
  return pids;
}
