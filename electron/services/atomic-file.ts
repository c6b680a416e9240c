// Atomic file writes: a temp file in the same folder, fsync, then rename over the target, so a
// reader (or a crash at any moment) sees the old content or the new, never a torn file.
import { open, rename, readFile, mkdir, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (e) {
    // `force`: a temp file already gone is fine; one that cannot be removed is said too.
    await rm(tmp, { force: true }).catch((cleanup: unknown) => {
      throw new Error(`${(e as Error).message} (and ${tmp} could not be removed: ${(cleanup as Error).message})`, { cause: e });
    });
    throw e;
  }
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value, null, 2));
}

export const CORRUPT_FILE_WARNING = 'CorruptFileWarning';

/**
 * Reads a JSON file checked against `schema`, never trusted as it is. A missing file gives
 * `fallback`. So does one that is unreadable, not JSON or not of the schema's shape: it is
 * moved aside to `<path>.corrupt` (kept for the user to look at, and not read again) and
 * reported as a process warning named CORRUPT_FILE_WARNING, which the app writes to its log.
 */
export async function readJson<S extends z.ZodType, F>(path: string, schema: S, fallback: F): Promise<z.output<S> | F> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    process.emitWarning(`could not read ${path}: ${(e as Error).message}`, CORRUPT_FILE_WARNING);
    return fallback;
  }
  let problem: string;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    problem = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'} ${i.message}`).slice(0, 5).join('; ');
  } catch {
    problem = 'not JSON';
  }
  const aside = `${path}.corrupt`;
  const moved = await rename(path, aside).then(
    () => true,
    () => false,
  );
  process.emitWarning(`${path} is unreadable (${problem}); ${moved ? `moved aside to ${aside}` : 'left in place'}, read as empty`, CORRUPT_FILE_WARNING);
  return fallback;
}
