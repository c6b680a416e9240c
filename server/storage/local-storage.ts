// Output storage in a local directory: <root>/<jobId>/{video.mp4,captions.vtt,thumbnail.jpg}.
import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { OUTPUT_FILES, stageOutputs, statIfPresent } from './output-storage.js';
import { OWNER_DIR_MODE, OWNER_FILE_MODE } from './owner-only.js';
import type { OutputFile, OutputStorage, StoredFile } from './output-storage.js';

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class LocalOutputStorage implements OutputStorage {
  constructor(private readonly root: string) {}

  async publish(jobId: string, workDir: string): Promise<{ videoBytes: number }> {
    const dir = this.dir(jobId);
    const staging = `${dir}.staging-${process.pid}-${Date.now()}`;
    await mkdir(staging, { recursive: true, mode: OWNER_DIR_MODE });
    try {
      await stageOutputs(workDir, staging);
      await rm(dir, { recursive: true, force: true }); // an earlier attempt's leftovers
      await rename(staging, dir);
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
    return { videoBytes: (await stat(join(dir, OUTPUT_FILES.video.name))).size };
  }

  async stat(jobId: string, file: OutputFile): Promise<StoredFile | null> {
    const s = await statIfPresent(join(this.dir(jobId), OUTPUT_FILES[file].name));
    if (!s?.isFile()) return null;
    return { size: s.size, etag: `"${jobId}-${file}-${s.size}-${Math.floor(s.mtimeMs)}"` };
  }

  localPath(jobId: string, file: OutputFile): string {
    return join(this.dir(jobId), OUTPUT_FILES[file].name);
  }

  read(jobId: string, file: OutputFile, range?: { start: number; end: number }): Readable {
    return createReadStream(join(this.dir(jobId), OUTPUT_FILES[file].name), range ?? {});
  }

  async replace(jobId: string, file: OutputFile, bytes: Buffer): Promise<void> {
    const target = join(this.dir(jobId), OUTPUT_FILES[file].name);
    const part = `${target}.part-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await writeFile(part, bytes, { mode: OWNER_FILE_MODE });
      await rename(part, target);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
  }

  async remove(jobId: string): Promise<void> {
    await rm(this.dir(jobId), { recursive: true, force: true });
  }

  private dir(jobId: string): string {
    if (!SAFE_ID.test(jobId)) throw new Error('bad job id');
    return join(this.root, jobId);
  }
}
