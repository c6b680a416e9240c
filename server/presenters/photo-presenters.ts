// Photo presenters as the routes and the worker see them: creation checks the portrait (an
// image asset of the caller), the optional cut-out mask and the Face Mesh points (a face big
// enough to animate), listing and lookup for the presenter registry, the face-crop thumbnail,
// and a job's presenter resolved to local files for the engine.
import { randomBytes } from 'node:crypto';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import {
  issuesToDetails, PRESENTER_LIMITS, PresenterCreate, type ErrorDetail, type Presenter,
} from '../../shared/contract/index.js';
import { faceBox, toPixels } from '../../shared/scene/face-mesh.js';
import type { AssetStore, StoredAsset } from '../assets/asset-store.js';
import type { PhotoPresenterSpec } from '../engine/types.js';
import type { AssetStorage } from '../storage/asset-storage.js';
import type { PhotoPresenterRecord, PhotoPresenterStore } from './photo-store.js';

/** A refusal the routes turn into the contract's error body. */
export class PresenterError extends Error {
  constructor(
    readonly code: 'validation_failed' | 'quota_exceeded' | 'not_found' | 'presenter_in_use',
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'PresenterError';
  }
}

const THUMBNAIL_SIDE = 256;
/** The thumbnail's square side in face heights. */
const THUMBNAIL_FACES = 1.7;
const THUMBNAILS_KEPT = 64;

export const photoThumbnailUrl = (id: string): string => `/api/presenters/${id}/thumbnail.jpg`;

export class PhotoPresenters {
  private readonly thumbnails = new Map<string, Buffer>();

  constructor(
    readonly store: PhotoPresenterStore,
    private readonly assets: { store: AssetStore; files: AssetStorage },
    private readonly limit: number = PRESENTER_LIMITS.perUser,
  ) {}

  static toPresenter(p: PhotoPresenterRecord): Presenter {
    return {
      id: p.id, name: p.name, kind: 'photo', builtIn: false, thumbnailUrl: photoThumbnailUrl(p.id),
      portrait: { assetId: p.assetId, ...(p.maskAssetId ? { maskAssetId: p.maskAssetId } : {}), landmarks: p.landmarks },
    };
  }

  /** The user's photo presenters (the registry's hook for GET /api/presenters). */
  async list(userId: string): Promise<Presenter[]> {
    return (await this.store.list(userId)).map(PhotoPresenters.toPresenter);
  }

  async get(id: string, userId: string): Promise<Presenter | null> {
    const p = await this.store.get(id, userId);
    return p ? PhotoPresenters.toPresenter(p) : null;
  }

  async create(userId: string, body: unknown): Promise<Presenter> {
    const parsed = PresenterCreate.safeParse(body, { reportInput: true });
    if (!parsed.success) throw invalid(issuesToDetails(parsed.error));
    const input = parsed.data;
    const details: ErrorDetail[] = [];
    const portrait = await this.image(input.assetId, userId, 'assetId', details);
    const mask = input.maskAssetId === undefined ? null : await this.image(input.maskAssetId, userId, 'maskAssetId', details);
    if (portrait && mask && (mask.width !== portrait.width || mask.height !== portrait.height)) {
      details.push({ path: 'maskAssetId', message: `must be the portrait's size (${portrait.width}×${portrait.height}), not ${mask.width}×${mask.height}` });
    }
    if (portrait) {
      const face = faceBox(toPixels(input.landmarks, portrait.width!, portrait.height!));
      const px = Math.round(face.height);
      if (px < PRESENTER_LIMITS.minFacePixels) {
        details.push({
          path: 'landmarks',
          message: `the face is ${px} px tall in this portrait; a face of at least ${PRESENTER_LIMITS.minFacePixels} px is needed to animate it (use a larger or closer photo)`,
        });
      }
    }
    if (details.length || !portrait) throw invalid(details);
    const record: PhotoPresenterRecord = {
      id: `pht_${Date.now().toString(36)}${randomBytes(6).toString('hex')}`,
      userId,
      name: input.name,
      assetId: portrait.id,
      maskAssetId: mask?.id ?? null,
      landmarks: input.landmarks.map((p) => [p[0], p[1]] as [number, number]),
      createdAt: new Date().toISOString(),
    };
    const r = await this.store.insert(record, this.limit);
    if (!r.ok) throw new PresenterError('quota_exceeded', `you have ${r.count} photo presenters, the most one account keeps; delete one first`);
    return PhotoPresenters.toPresenter(record);
  }

  async remove(id: string, userId: string): Promise<void> {
    const r = await this.store.remove(id, userId);
    if (r.ok) {
      this.thumbnails.delete(id);
      return;
    }
    if (r.reason === 'not_found') throw new PresenterError('not_found', 'no such presenter');
    throw new PresenterError(
      'presenter_in_use',
      `this presenter speaks in ${r.jobIds.length === 1 ? 'a job' : `${r.jobIds.length} jobs`} still queued or rendering (${r.jobIds.slice(0, 5).join(', ')}); cancel ${r.jobIds.length === 1 ? 'it' : 'them'} or wait until ${r.jobIds.length === 1 ? 'it finishes' : 'they finish'}`,
    );
  }

  /** A square JPEG of the face (null: no such presenter of this user, or its portrait is gone). */
  async thumbnail(id: string, userId: string): Promise<Buffer | null> {
    const p = await this.store.get(id, userId);
    if (!p) return null;
    const kept = this.thumbnails.get(id);
    if (kept) return kept;
    const files = await this.files(p, userId);
    if (!files) return null;
    const image = await loadImage(files.portraitPath);
    const face = faceBox(toPixels(p.landmarks, image.width, image.height));
    const side = Math.min(image.width, image.height, face.height * THUMBNAIL_FACES);
    const sx = Math.min(Math.max(0, face.x + face.width / 2 - side / 2), image.width - side);
    const sy = Math.min(Math.max(0, face.y + face.height * 0.45 - side / 2), image.height - side);
    const canvas = createCanvas(THUMBNAIL_SIDE, THUMBNAIL_SIDE);
    canvas.getContext('2d').drawImage(image, sx, sy, side, side, 0, 0, THUMBNAIL_SIDE, THUMBNAIL_SIDE);
    const jpeg = await canvas.encode('jpeg', 85);
    if (this.thumbnails.size >= THUMBNAILS_KEPT) this.thumbnails.delete(this.thumbnails.keys().next().value!);
    this.thumbnails.set(id, jpeg);
    return jpeg;
  }

  /** A job's presenter for the engine (the queue's hook); null: no such presenter of this user, or a file is gone. */
  async spec(id: string, userId: string): Promise<PhotoPresenterSpec | null> {
    const p = await this.store.get(id, userId);
    return p ? this.files(p, userId) : null;
  }

  /** The presenter's portrait and mask as local files, for the engine (null: no such presenter, or a file is gone). */
  async files(p: PhotoPresenterRecord, userId: string): Promise<PhotoPresenterSpec | null> {
    const portrait = await this.assets.store.get(p.assetId, userId);
    const portraitPath = portrait ? await this.assets.files.localPath(portrait.id, 'content') : null;
    if (!portrait || !portraitPath || portrait.width === null || portrait.height === null) return null;
    let maskPath: string | null = null;
    if (p.maskAssetId) {
      maskPath = (await this.assets.store.get(p.maskAssetId, userId)) ? await this.assets.files.localPath(p.maskAssetId, 'content') : null;
      if (!maskPath) return null;
    }
    return { kind: 'photo', id: p.id, portraitPath, maskPath, width: portrait.width, height: portrait.height, landmarks: p.landmarks };
  }

  private async image(id: string, userId: string, path: string, details: ErrorDetail[]): Promise<StoredAsset | null> {
    const asset = await this.assets.store.get(id, userId);
    if (!asset) details.push({ path, message: `no such asset "${id.slice(0, 64)}"; upload the photo first (POST /api/assets)` });
    else if (asset.kind !== 'image' || asset.width === null || asset.height === null) details.push({ path, message: `must be an image; "${asset.name}" is ${asset.kind === 'audio' ? 'a sound' : `a ${asset.kind}`}` });
    else return asset;
    return null;
  }
}

const invalid = (details: ErrorDetail[]) =>
  new PresenterError('validation_failed', `the presenter is invalid: ${details.map((d) => d.path).join(', ')}`, details);
