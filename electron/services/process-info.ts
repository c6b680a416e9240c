// The command line of a running process, on every OS, to tell our own leftover studio from an
// unrelated process that was given the same PID later. Null when there is no such process or
// it cannot be read (then nothing may be done to it).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

function run(cmd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { windowsHide: true, timeout: 10_000, encoding: 'utf8' }, (err, stdout) => resolve(err ? null : stdout.trim() || null));
  });
}

export async function processCommandLine(pid: number, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (platform === 'linux') {
    const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ESRCH') return null; // no such process
      throw e;
    });
    return raw ? raw.replace(/\0+$/, '').split('\0').join(' ') : null;
  }
  if (platform === 'win32') {
    return run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', `(Get-CimInstance Win32_Process -Filter "ProcessId=${pid}").CommandLine`]);
  }
  return run('ps', ['-ww', '-o', 'command=', '-p', String(pid)]);
}
