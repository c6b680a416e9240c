// Slide decks into PDF through LibreOffice, when it is installed: `soffice --headless
// --convert-to pdf`. Each conversion gets its own LibreOffice profile folder, because soffice
// hands the job to an instance the user already has open (and converts nothing) otherwise.
import { spawn } from 'node:child_process';
import { access, constants, mkdir, readdir } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BridgeFailure } from './errors.js';

const CONVERT_TIMEOUT_MS = 180_000;

export const NO_LIBREOFFICE_MESSAGE =
  'PowerPoint files are turned into slides by LibreOffice, which is not installed on this computer: export the deck as PDF (File → Export → PDF) and add the PDF instead';

/** Where LibreOffice's `soffice` is: SOFFICE_PATH, the PATH, then the usual install folders. */
export async function findSoffice(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  const exe = platform === 'win32' ? 'soffice.exe' : 'soffice';
  const candidates = [
    ...(env.SOFFICE_PATH ? [env.SOFFICE_PATH] : []),
    ...(env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, exe)),
    ...(platform === 'darwin' ? ['/Applications/LibreOffice.app/Contents/MacOS/soffice'] : []),
    ...(platform === 'win32' ? [join(env.ProgramFiles ?? 'C:\\Program Files', 'LibreOffice', 'program', exe)] : []),
  ];
  for (const c of candidates) {
    try {
      await access(c, platform === 'win32' ? constants.F_OK : constants.X_OK);
      return c;
    } catch {
      // not there: the next candidate
    }
  }
  return null;
}

/** Converts `input` to a PDF in `workDir` (made here) and gives its path. */
export async function convertToPdf(soffice: string, input: string, workDir: string, signal: AbortSignal): Promise<string> {
  const outDir = join(workDir, 'out');
  await mkdir(outDir, { recursive: true });
  const args = ['--headless', '--norestore', '--nolockcheck', `-env:UserInstallation=${pathToFileURL(join(workDir, 'profile')).href}`, '--convert-to', 'pdf', '--outdir', outDir, input];
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(soffice, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const collect = (d: Buffer) => output.length < 50 && output.push(d.toString());
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const stop = () => child.kill('SIGKILL');
    const timer = setTimeout(stop, CONVERT_TIMEOUT_MS);
    signal.addEventListener('abort', stop, { once: true });
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new BridgeFailure('unsupported_media_type', `LibreOffice could not be started: ${e.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      if (signal.aborted) reject(new BridgeFailure('canceled', 'the upload was canceled'));
      else if (code === 0) resolve();
      else reject(new BridgeFailure('unsupported_media_type', code === null ? 'LibreOffice took too long to convert this deck' : 'LibreOffice could not convert this deck (is it a PowerPoint file?)'));
    });
  });
  const pdf = (await readdir(outDir)).find((n) => n.toLowerCase().endsWith('.pdf'));
  // soffice exits 0 having written nothing for a file it cannot read.
  if (!pdf) throw new BridgeFailure('unsupported_media_type', `LibreOffice could not convert this deck${output.length ? `: ${output.join('').trim().slice(0, 200)}` : ''}`);
  return join(outDir, pdf);
}
