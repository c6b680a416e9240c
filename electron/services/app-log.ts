// The desktop app's log file: `<userData>/logs/main.log`, one timestamped line per entry,
// rotated at 1 MB with three files kept (main.log, main.log.1, main.log.2), so it never holds
// more than a few MB. Written synchronously: a line logged just before a crash is on disk.
// Every line goes through `redact` first, so no key reaches the file.
import { appendFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export type LogLevel = 'info' | 'warn' | 'error';

export interface AppLog {
  readonly dir: string;
  readonly file: string;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
  /** A secret known at run time (the environment profile's key): never written, whatever its form. */
  addSecret(secret: string): void;
  /** The text as the log would write it (for messages shown elsewhere, such as error boxes). */
  redact(text: string): string;
}

export interface AppLogOptions {
  dir: string;
  maxBytes?: number;
  /** Files kept, the current one included. */
  keep?: number;
  /** Also shows each line (the console of `npm start`). */
  echo?: (line: string) => void;
}

const REDACTED = '[redacted]';
// Keys of our render API (`psk_<id>_<secret>`, see server/keys) and look-alikes of other APIs
// (`pk_…`, `sk_…`); whatever follows an auth scheme or a key-ish header, field or parameter.
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\b(?:p?s|p)k_[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\b(bearer|basic)(\s+)[^\s"',;]+/gi, `$1$2${REDACTED}`],
  [/\b(x-api-key|api[_-]?key|authorization|token|secret|password)(["']?\s*[:=]\s*["']?)[^"',;&\r\n]+/gi, `$1$2${REDACTED}`],
];

/** The line with every key-like part replaced; `known` are exact secrets to remove too. */
export function redact(line: string, known: Iterable<string> = []): string {
  let out = line;
  for (const secret of known) if (secret.length >= 6) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

export function createAppLog(opts: AppLogOptions): AppLog {
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const keep = Math.max(1, opts.keep ?? 3);
  const file = join(opts.dir, 'main.log');
  const secrets = new Set<string>();
  let size: number | null = null;
  let broken = false;

  const rotate = () => {
    rmSync(`${file}.${keep - 1}`, { force: true });
    for (let i = keep - 2; i >= 1; i--) {
      try {
        renameSync(`${file}.${i}`, `${file}.${i + 1}`);
      } catch {
        // not there yet
      }
    }
    if (keep > 1) renameSync(file, `${file}.1`);
    else rmSync(file, { force: true });
    size = 0;
  };

  const write = (level: LogLevel, message: string) => {
    const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${redact(message, secrets).replace(/\r?\n(?!$)/g, '\n    ')}\n`;
    opts.echo?.(line.trimEnd());
    if (broken) return;
    try {
      if (size === null) {
        mkdirSync(opts.dir, { recursive: true });
        size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
      }
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) rotate();
      appendFileSync(file, line, { mode: 0o600 });
      size += bytes;
    } catch (e) {
      // A log that cannot be written must not take the app down: say so once, then only echo.
      broken = true;
      opts.echo?.(`log file ${file} not writable: ${(e as Error).message}`);
    }
  };

  return {
    dir: opts.dir,
    file,
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m, e) => write('error', e === undefined ? m : `${m}: ${describe(e)}`),
    addSecret: (s) => void secrets.add(s),
    redact: (text) => redact(text, secrets),
  };
}

/**
 * The local studio's output, as the app logs it: its warnings and errors (pino JSON at level 40
 * and above), its plain lines (the ready line, stack traces) and the launcher's own messages
 * (as warnings); per-request info lines would drown the rest. Returns null for a line to leave out.
 */
/** A pino line of the studio's log: only its numeric level is read. */
const PinoLine = z.object({ level: z.number() });

/** The value of a line that looks like JSON, or null for one that is not JSON after all (a plain line starting with '{'). */
function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) return null;
    throw e;
  }
}

export function studioLogEntry(line: string): { level: LogLevel; message: string } | null {
  const text = line.trim();
  if (!text) return null;
  if (text.startsWith('{')) {
    const entry = PinoLine.safeParse(parseJsonOrNull(text));
    if (entry.success) {
      const { level } = entry.data;
      return level < 40 ? null : { level: level >= 50 ? 'error' : 'warn', message: `[studio] ${text.slice(0, 8000)}` };
    }
  }
  // The launcher's own messages ("local studio: …") report restarts and failures.
  return { level: text.startsWith('local studio:') ? 'warn' : 'info', message: `[studio] ${text.slice(0, 8000)}` };
}

/**
 * Crash reports (minidumps Electron's crashReporter writes, never uploaded) under `dir`: all but
 * the newest `keep` are deleted, so they stay within a few MB. Returns how many are kept.
 */
export function pruneCrashReports(dir: string, keep = 3): number {
  const dumps: { path: string; mtime: number }[] = [];
  const walk = (d: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory() && depth < 3) walk(p, depth + 1);
      else if (st?.isFile() && name.endsWith('.dmp')) dumps.push({ path: p, mtime: st.mtimeMs });
    }
  };
  walk(dir, 0);
  dumps.sort((a, b) => b.mtime - a.mtime);
  for (const d of dumps.slice(keep)) rmSync(d.path, { force: true });
  return Math.min(dumps.length, keep);
}
