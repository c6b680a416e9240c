// ffprobe and ffmpeg on untrusted files: the newest on the machine (FFPROBE_PATH / FFMPEG_PATH,
// else the system's on PATH), each run in a child process with `-nostdin`, reading nothing but
// local files (`-protocol_whitelist file`), with a time limit after which it is killed and, on
// Linux, a memory limit (util-linux `prlimit`, which sets it and then becomes the tool).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export { decoderPath as ffmpegBin, ffprobePath as ffprobeBin } from '../media-binaries.js';

/** Options every run puts before its input. */
export const SAFE_INPUT = ['-protocol_whitelist', 'file'];

interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const MAX_OUTPUT = 1 << 20;

/** Heap a media tool may take: a decoder fed a hostile file fails instead of eating the machine. */
const TOOL_MEMORY_BYTES = 2 * 1024 ** 3;
const PRLIMIT = process.platform === 'linux' && existsSync('/usr/bin/prlimit') ? '/usr/bin/prlimit' : null;

/** Runs a tool to its end (or its time limit), collecting at most 1 MiB of each output. */
export function runTool(bin: string, args: string[], timeoutMs: number): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const proc = PRLIMIT
      ? spawn(PRLIMIT, [`--data=${TOOL_MEMORY_BYTES}`, '--', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    proc.stdout.setEncoding('utf8').on('data', (d: string) => { if (stdout.length < MAX_OUTPUT) stdout += d; });
    proc.stderr.setEncoding('utf8').on('data', (d: string) => { if (stderr.length < MAX_OUTPUT) stderr += d; });
    const timer = setTimeout(() => {
      timedOut = true;
      proc.kill('SIGKILL');
    }, timeoutMs);
    proc.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    proc.on('close', (code) => {
      clearTimeout(timer);
      // prlimit could not start the tool: the same failure as a spawn that finds nothing.
      if (PRLIMIT && code === 127 && /^prlimit: failed to execute/m.test(stderr)) {
        return reject(Object.assign(new Error(`${bin} was not found`), { code: 'ENOENT' }));
      }
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
