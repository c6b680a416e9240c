// A video clip: decoded by an ffmpeg child process straight to yuv420p at the output size and
// frame rate (scaled, then cropped or padded, once, in the decoder), from `trimStart`; looped
// (from the clip's start) or its last frame held. The file is untrusted: the newest ffmpeg on
// the machine, no stdin, local files only, a cap on single allocations, and a limit on how long
// a frame may take; a clip that fails fails its job with a clear error, never the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { OUTPUT_FPS, type SceneBackground } from '../../../../shared/contract/index.js';
import { COVER_FOCUS, LETTERBOX_COLOR } from '../../../../shared/scene/index.js';
import { decoderPath } from '../../encode/ffmpeg.js';
import { yuvFrameSize } from '../sprites.js';
import { EngineError } from '../../types.js';
import type { BackgroundSource, OpenBackground } from './background.js';

/** How long the decoder may take for one frame before the clip counts as hanging. */
export const CLIP_FRAME_TIMEOUT_MS = 20_000;
/** Decoded frames kept ready ahead of the render (the decoder is paused beyond). */
const READY_FRAMES = 8;

/** The decoder's filter: frame rate first (no work on dropped frames), then the size by `fit`. */
function clipFilter(W: number, H: number, fit: 'cover' | 'contain'): string {
  const size = fit === 'cover'
    ? `scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H}:(iw-ow)*${COVER_FOCUS.x}:(ih-oh)*${COVER_FOCUS.y}`
    : `scale=${W}:${H}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:color=${LETTERBOX_COLOR.replace('#', '0x')}`;
  return `fps=${OUTPUT_FPS},${size},setsar=1,format=yuv420p`;
}

/** The decoder's arguments: the clip as raw yuv420p frames of W×H at the output rate on stdout (the benchmark decodes alike). */
export function clipDecoderArgs(path: string, W: number, H: number, bg: Pick<SceneBackground, 'fit' | 'trimStart' | 'loop'> | null): string[] {
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-max_alloc', String(256 << 20), '-protocol_whitelist', 'file',
    ...(bg?.loop ? ['-stream_loop', '-1'] : []),
    ...(bg?.trimStart ? ['-ss', String(bg.trimStart)] : []),
    '-i', path, '-map', '0:v:0', '-an', '-sn', '-dn',
    '-vf', clipFilter(W, H, bg?.fit ?? 'cover'), '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1',
  ];
}

/** Raw frames of a fixed size read from a child's stdout, a few ahead, the child paused beyond. */
class RawFrames {
  private readonly ready: Buffer[] = [];
  private readonly free: Buffer[] = [];
  private filling: Buffer | null = null;
  private filled = 0;
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly proc: ChildProcess, private readonly size: number) {
    const out = proc.stdout!;
    out.on('data', (d: Buffer) => {
      for (let at = 0; at < d.length;) {
        this.filling ??= this.free.pop() ?? Buffer.allocUnsafe(size);
        const n = Math.min(size - this.filled, d.length - at);
        d.copy(this.filling, this.filled, at, at + n);
        this.filled += n;
        at += n;
        if (this.filled === size) {
          this.ready.push(this.filling);
          this.filling = null;
          this.filled = 0;
        }
      }
      if (this.ready.length >= READY_FRAMES) out.pause();
      this.notify();
    });
    out.on('error', () => undefined);
  }

  finish(error: Error | null): void {
    this.ended = true;
    this.failure ??= error;
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** The next frame (null once the clip has ended); `done` hands back the one before it for reuse. */
  async next(done: Buffer | null): Promise<Buffer | null> {
    if (done) this.free.push(done);
    for (;;) {
      if (this.ready.length) {
        const f = this.ready.shift()!;
        if (this.ready.length < READY_FRAMES) this.proc.stdout!.resume();
        return f;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return null;
      let timer: NodeJS.Timeout | undefined;
      const hung = await new Promise<boolean>((resolve) => {
        this.wake = () => resolve(false);
        timer = setTimeout(() => resolve(true), CLIP_FRAME_TIMEOUT_MS);
      });
      clearTimeout(timer);
      if (hung) throw new Error(`no frame for ${CLIP_FRAME_TIMEOUT_MS / 1000} s`);
    }
  }
}

export const openClip: OpenBackground = async ({ layout, scene, index, signal }) => {
  const media = scene.media!;
  const bg = scene.background;
  const W = layout.size.width | 0;
  const H = layout.size.height | 0;
  const args = clipDecoderArgs(media.path, W, H, bg);
  // A process group of its own, killed whole: FFMPEG_PATH may be a wrapper that runs ffmpeg as its child.
  const group = process.platform !== 'win32';
  const proc = spawn(decoderPath(), args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, detached: group });
  const frames = new RawFrames(proc, yuvFrameSize(W, H));
  let stderr = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
  let closed = false;
  const kill = () => {
    if (closed) return;
    closed = true;
    try {
      if (group && proc.pid) process.kill(-proc.pid, 'SIGKILL');
      else proc.kill('SIGKILL');
    } catch {
      // gone already
    }
    proc.stdout.destroy();
    proc.stderr.destroy();
  };
  signal.addEventListener('abort', kill, { once: true });
  const broken = (why: string) => new EngineError('invalid_input', `Scene ${index + 1}: its background clip cannot be decoded (${why}).`);
  proc.once('error', (err) => frames.finish(broken(err.message)));
  proc.once('close', (code, sig) => {
    signal.removeEventListener('abort', kill);
    const last = stderr.trim().split('\n').filter(Boolean).slice(-2).join(' / ');
    frames.finish(code === 0 || closed ? null : broken(last || (sig ?? `exit code ${code}`)));
  });

  let shown: Buffer | null = null;
  let decoded = 0;
  const source: BackgroundSource = {
    still: null,
    async frameAt(t) {
      const want = Math.floor(t * OUTPUT_FPS + 1e-6) + 1;
      while (decoded < want) {
        let f: Buffer | null;
        try {
          f = await frames.next(shown);
        } catch (err) {
          throw err instanceof EngineError ? err : broken((err as Error).message);
        }
        if (!f) break; // ended: the last frame is held
        shown = f;
        decoded++;
      }
      if (!shown) throw broken(stderr.trim() || 'it has no video frames');
      return shown;
    },
    close: kill,
  };
  return source;
};
