// The asset store as the routes and the worker see it: an upload is received into a temporary
// file, sniffed, probed and thumbnailed, then moved into storage and only then given its row
// (so a row always has its files); anything refused or aborted leaves neither.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { ASSET_LIMITS, type AssetKind, type AssetMediaType } from '../../shared/contract/index.js';
import { IdGenerator } from '../jobs/ids.js';
import type { AssetStorage } from '../storage/asset-storage.js';
import { AssetError } from './asset-error.js';
import type { AssetStore, StoredAsset } from './asset-store.js';
import { probeAsset } from './probe.js';
import { receiveBody, TooLargeError } from './receive.js';
import { OWNER_DIR_MODE } from '../storage/owner-only.js';
import { checkSniffedType } from './sniff.js';

export interface AssetLimits {
  maxBytes: Record<AssetKind, number>;
  quotaBytes: number;
}

export const defaultAssetLimits = (over: { maxBytes?: Partial<Record<AssetKind, number>>; quotaBytes?: number } = {}): AssetLimits => ({
  maxBytes: { ...ASSET_LIMITS.maxBytes, ...over.maxBytes },
  quotaBytes: over.quotaBytes ?? ASSET_LIMITS.quotaBytes,
});

export interface Upload {
  userId: string;
  /** Cleaned already (asset-name.ts). */
  name: string;
  mediaType: AssetMediaType;
  kind: AssetKind;
  body: IncomingMessage;
  /** The declared Content-Length, when there is one. */
  declaredBytes: number | null;
}

const mib = (n: number): string => (n >= 1024 ** 3 ? `${+(n / 1024 ** 3).toFixed(2)} GiB` : n >= 1024 ** 2 ? `${+(n / 1024 ** 2).toFixed(1)} MiB` : `${+(n / 1024).toFixed(1)} KiB`);

/** Uploads probed at once (each may run ffmpeg or pdf.js on both cores); the others wait their turn. */
const PROBES_AT_ONCE = 2;

export class Assets {
  private readonly ids = new IdGenerator('ast_');
  private probing = 0;
  private readonly probeQueue: (() => void)[] = [];

  constructor(
    readonly store: AssetStore,
    readonly files: AssetStorage,
    /** Where uploads are received (in the data folder, cleared at start). */
    private readonly uploadDir: string,
    readonly limits: AssetLimits,
    /** Called with an audio asset's content before its files are removed (the engine's decoded copy goes too). */
    private readonly forgetAudio?: (path: string) => Promise<void>,
  ) {}

  /** Checks what can be known before reading the body: the declared size against the limits. */
  async precheck(u: Pick<Upload, 'userId' | 'kind' | 'declaredBytes'>): Promise<void> {
    const max = this.limits.maxBytes[u.kind];
    if (u.declaredBytes !== null && u.declaredBytes > max) throw this.tooLarge(u.kind);
    const used = await this.store.usedBytes(u.userId);
    if (used + (u.declaredBytes ?? 0) > this.limits.quotaBytes) throw this.overQuota(used);
  }

  async ingest(u: Upload): Promise<StoredAsset> {
    await this.precheck(u);
    const used = await this.store.usedBytes(u.userId);
    const max = this.limits.maxBytes[u.kind];
    // Reading stops at the kind's limit, or sooner at the room left in the quota.
    const cap = Math.min(max, Math.max(0, this.limits.quotaBytes - used));
    await mkdir(this.uploadDir, { recursive: true, mode: OWNER_DIR_MODE });
    const base = join(this.uploadDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const content = `${base}.upload`;
    const thumbnail = `${base}.thumb.jpg`;
    try {
      let size: number;
      try {
        size = await receiveBody(u.body, content, cap);
      } catch (err) {
        if (err instanceof TooLargeError) throw cap < max ? this.overQuota(used) : this.tooLarge(u.kind);
        throw err;
      }
      if (size === 0) throw new AssetError('validation_failed', 'the file is empty');
      await checkSniffedType(content, u.mediaType, u.name);
      const probed = await this.inTurn(() => probeAsset(content, u.kind, u.mediaType, thumbnail));
      const id = this.ids.next();
      const asset: StoredAsset = {
        id,
        userId: u.userId,
        name: u.name,
        kind: u.kind,
        mediaType: u.mediaType,
        sizeBytes: size,
        ...probed,
        createdAt: new Date().toISOString(),
        contentUrl: `/api/assets/${id}/content`,
        thumbnailUrl: `/api/assets/${id}/thumbnail.jpg`,
      };
      await this.files.put(id, content, thumbnail);
      let inserted: Awaited<ReturnType<AssetStore['insert']>>;
      try {
        inserted = await this.store.insert(asset, this.limits.quotaBytes);
      } catch (err) {
        await this.files.remove(id);
        throw err;
      }
      if (!inserted.ok) {
        await this.files.remove(id);
        throw this.overQuota(inserted.usedBytes);
      }
      return asset;
    } finally {
      // Moved into storage on success; on any failure nothing of the upload stays.
      await Promise.all([rm(content, { force: true }), rm(thumbnail, { force: true })]);
    }
  }

  /** Removes the asset's row (refused while an active job uses it), then its files. */
  async remove(id: string, userId: string) {
    const r = await this.store.remove(id, userId);
    if (!r.ok) return r;
    const content = r.asset.kind === 'audio' && this.forgetAudio ? await this.files.localPath(id, 'content') : null;
    // (The asset goes all the same: a copy left in the cache is pushed out by newer tracks.)
    if (content) await this.forgetAudio!(content).catch((e: unknown) => console.warn(`The decoded copy of asset ${id} could not be removed from the music cache: ${(e as Error).message ?? String(e)}`));
    await this.files.remove(id);
    return r;
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (this.probing >= PROBES_AT_ONCE) await new Promise<void>((resolve) => this.probeQueue.push(resolve));
    this.probing++;
    try {
      return await work();
    } finally {
      this.probing--;
      this.probeQueue.shift()?.();
    }
  }

  private tooLarge(kind: AssetKind): AssetError {
    return new AssetError('payload_too_large', `over the ${mib(this.limits.maxBytes[kind])} limit for ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} file`);
  }

  private overQuota(used: number): AssetError {
    return new AssetError(
      'quota_exceeded',
      `your files take ${mib(used)} of your ${mib(this.limits.quotaBytes)}; this one does not fit — delete some first`,
    );
  }
}
