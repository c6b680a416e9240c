// Output storage in a directory that every API process and worker mounts (NFS, SMB, a
// shared volume): <root>/<jobId>/{video.mp4,captions.vtt,thumbnail.jpg}. Delivery is at
// least once (a worker whose lease lapsed may still finish a render another worker redid),
// so publishing is first-wins: the files are gathered in a private staging directory on the
// same mount and renamed into place in one step; rename(2) refuses to replace a non-empty
// directory, so a second render of a job can never overwrite or half-overwrite the first.
// Renders of one job are the same video; the second one is discarded.
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { LocalOutputStorage } from './local-storage.js';
import { OUTPUT_FILES, stageOutputs } from './output-storage.js';
import { OWNER_DIR_MODE } from './owner-only.js';

export class SharedDirOutputStorage extends LocalOutputStorage {
  constructor(private readonly shared: string) {
    super(shared);
  }

  override async publish(jobId: string, workDir: string): Promise<{ videoBytes: number }> {
    const final = join(this.shared, jobId);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(jobId)) throw new Error('bad job id');
    const staging = join(this.shared, `.staging-${jobId}-${randomBytes(6).toString('hex')}`);
    await mkdir(staging, { recursive: true, mode: OWNER_DIR_MODE });
    try {
      await stageOutputs(workDir, staging);
      try {
        await rename(staging, final);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
        await rm(staging, { recursive: true, force: true }); // an earlier render of this job is already in place
      }
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
    return { videoBytes: (await stat(join(final, OUTPUT_FILES.video.name))).size };
  }
}
