// Where ffmpeg and ffprobe are. The encoder may use the bundled static build (packaged for
// macOS and Windows; Linux packages use the distribution's ffmpeg); whatever reads a
// creator's file (an upload's probe, a clip background) uses the newest on the machine:
// FFMPEG_PATH / FFPROBE_PATH, else the system's on PATH, and the bundled build only where there is none.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

let bundled: string | null | undefined;
/** This OS and CPU's @ffmpeg-installer build, or null where none is installed (a Linux package: the system's is used). */
function bundledFfmpeg(): string | null {
  if (bundled === undefined) {
    try {
      const dir = dirname(createRequire(import.meta.url).resolve(`@ffmpeg-installer/${process.platform}-${process.arch}/package.json`));
      const file = join(dir, process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
      bundled = existsSync(file) ? file : null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
      bundled = null; // not installed for this platform, or not packaged (Linux)
    }
  }
  return bundled;
}

/** The encoder's ffmpeg: FFMPEG_PATH, else the bundled @ffmpeg-installer build, else the system's. */
export function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  return bundledFfmpeg() ?? findOnPath('ffmpeg') ?? 'ffmpeg';
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
