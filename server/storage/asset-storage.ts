// Where the creator's files live: `<storage>/assets/<assetId>/{content,thumbnail.jpg}`, beside
// the finished renders, so with a fleet's shared directory every API process serves them and
// every worker reads them. The asset's name is never part of a path (ids only). A new asset's
// files are gathered in a staging directory and renamed into place in one step, so a reader
// never sees half an asset.
import { createReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ASSET_ID_PATTERN } from '../../shared/contract/index.js';
import { OWNER_DIR_MODE, OWNER_FILE_MODE } from './owner-only.js';
import { statIfPresent } from './output-storage.js';

export const ASSET_FILES = { content: 'content', thumbnail: 'thumbnail.jpg' } as const;
export type AssetFile = keyof typeof ASSET_FILES;

export interface AssetStorage {
  /** Moves the probed upload and its thumbnail into place (the temporary files are gone after). */
  put(assetId: string, contentFile: string, thumbnailFile: string): Promise<void>;
  /** A path this process can read the file at (a shared mount, or a local copy of a remote object). */
  localPath(assetId: string, file: AssetFile): Promise<string | null>;
  stat(assetId: string, file: AssetFile): Promise<{ size: number; etag: string } | null>;
  read(assetId: string, file: AssetFile, range?: { start: number; end: number }): Readable;
  remove(assetId: string): Promise<void>;
}

/** A rename, or a copy when the temporary file is on another file system than the storage. */
async function moveFile(from: string, to: string): Promise<void> {
  await rename(from, to).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await rm(from, { force: true });
  });
  await chmod(to, OWNER_FILE_MODE);
}

/** The one implementation for a local or a shared (mounted) directory: ids never collide, so rename is enough. */
export class DirAssetStorage implements AssetStorage {
  private readonly root: string;

  constructor(storageRoot: string) {
    this.root = join(storageRoot, 'assets');
  }

  async put(assetId: string, contentFile: string, thumbnailFile: string): Promise<void> {
    const final = this.dir(assetId);
    await mkdir(this.root, { recursive: true, mode: OWNER_DIR_MODE });
    const staging = join(this.root, `.staging-${assetId}-${randomBytes(6).toString('hex')}`);
    await mkdir(staging, { mode: OWNER_DIR_MODE });
    try {
      await moveFile(contentFile, join(staging, ASSET_FILES.content));
      await moveFile(thumbnailFile, join(staging, ASSET_FILES.thumbnail));
      await rename(staging, final);
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
  }

  async localPath(assetId: string, file: AssetFile): Promise<string | null> {
    const path = join(this.dir(assetId), ASSET_FILES[file]);
    return (await statIfPresent(path))?.isFile() ? path : null;
  }

  async stat(assetId: string, file: AssetFile): Promise<{ size: number; etag: string } | null> {
    const s = await statIfPresent(join(this.dir(assetId), ASSET_FILES[file]));
    if (!s?.isFile()) return null;
    return { size: s.size, etag: `"${assetId}-${file}-${s.size}"` }; // an asset's files never change
  }

  read(assetId: string, file: AssetFile, range?: { start: number; end: number }): Readable {
    return createReadStream(join(this.dir(assetId), ASSET_FILES[file]), range ?? {});
  }

  async remove(assetId: string): Promise<void> {
    await rm(this.dir(assetId), { recursive: true, force: true });
  }

  private dir(assetId: string): string {
    if (!ASSET_ID_PATTERN.test(assetId)) throw new Error('bad asset id');
    return join(this.root, assetId);
  }
}
