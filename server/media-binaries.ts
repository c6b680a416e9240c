// Where ffmpeg and ffprobe are. The encoder may use the bundled static build; whatever reads a
// creator's file (an upload's probe, a clip background) uses the newest on the machine:
// FFMPEG_PATH / FFPROBE_PATH, else the system's on PATH, and the bundled build only where there is none.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/** The encoder's ffmpeg: FFMPEG_PATH, else the bundled @ffmpeg-installer build. */
export function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  try {
    return (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return 'ffmpeg';
  }
}

const onPath = new Map<string, string | null>();
function findOnPath(tool: string): string | null {
  if (!onPath.has(tool)) {
    const name = process.platform === 'win32' ? `${tool}.exe` : tool;
    onPath.set(tool, (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, name)).find((f) => existsSync(f)) ?? null);
  }
  return onPath.get(tool)!;
}

/** The ffmpeg that decodes untrusted files. */
export function decoderPath(): string {
  return process.env.FFMPEG_PATH || findOnPath('ffmpeg') || ffmpegPath();
}

/** ffprobe: FFPROBE_PATH, else the one beside FFMPEG_PATH's ffmpeg, else the system's. */
export function ffprobePath(): string {
  if (process.env.FFPROBE_PATH) return process.env.FFPROBE_PATH;
  const ff = process.env.FFMPEG_PATH;
  if (ff && /ffmpeg(\.exe)?$/.test(ff)) return ff.replace(/ffmpeg(\.exe)?$/, 'ffprobe$1');
  return findOnPath('ffprobe') ?? 'ffprobe';
}
