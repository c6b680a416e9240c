// ffmpeg's failures as a creator reads them in a job's error: the cause in words, never
// ffmpeg's stderr or a path on the render server. The detail rides along on the error
// (`detail`) for the server log.
import { EngineError } from '../types.js';

/** An EngineError with what ffmpeg said, for the log only. */
export type EncoderError = EngineError & { detail?: string };

/** Causes read from ffmpeg's stderr or the OS error, most specific first. */
const CAUSES: [RegExp, string][] = [
  [/No space left on device|ENOSPC|Disk quota exceeded|EDQUOT|File too large|EFBIG/i, 'no space left on the render disk'],
  [/Permission denied|EACCES|EPERM|Read-only file system|EROFS/i, 'the render folder cannot be written to'],
  [/Cannot allocate memory|ENOMEM|out of memory/i, 'the render server ran out of memory'],
];

function withDetail(message: string, detail: string): EncoderError {
  return Object.assign(new EngineError('encode_failed', message), { detail });
}

const causeOf = (text: string) => CAUSES.find(([re]) => re.test(text))?.[1];

/** ffmpeg ran and exited with a failure (`what`: the step, e.g. "encoding the video"). */
export function encoderExitError(what: string, exit: string, stderr: string): EncoderError {
  const cause = causeOf(stderr);
  const message = cause ? `The video could not be written: ${cause}.` : `The encoder failed while ${what} (${exit}).`;
  return withDetail(message, stderr.trim().slice(-2000));
}

/** The engine's own write of a render file failed for a cause the creator can act on (a full
 *  disk); any other error is not for this. */
export function writeError(err: unknown): EncoderError | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const cause = typeof code === 'string' ? causeOf(code) : undefined;
  return cause ? withDetail(`The video could not be written: ${cause}.`, (err as Error).message) : undefined;
}

/** ffmpeg could not be started at all. */
export function encoderStartError(bin: string, err: NodeJS.ErrnoException): EncoderError {
  const message =
    err.code === 'ENOENT'
      ? 'The video encoder (ffmpeg) is not installed on the render server (set FFMPEG_PATH there).'
      : `The video encoder (ffmpeg) could not be started: ${causeOf(`${err.code ?? ''} ${err.message}`) ?? err.code ?? 'unknown error'}.`;
  return withDetail(message, `${bin}: ${err.message}`);
}
