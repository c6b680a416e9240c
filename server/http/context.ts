// What the routes share: stores, storage, catalog, engine, limits and the event hub.
import type { Assets } from '../assets/assets.js';
import type { PhotoPresenters } from '../presenters/photo-presenters.js';
import type { RenderEngine } from '../engine/types.js';
import type { Catalog } from '../catalog.js';
import type { JobStore } from '../jobs/store.js';
import type { KeyStore } from '../keys/key-store.js';
import type { OutputStorage } from '../storage/output-storage.js';
import type { PresenterRegistry } from '../presenters/registry.js';
import type { EventHub } from './events.js';
import type { ListCache } from './list-cache.js';
import type { Resolution } from '../../shared/contract/index.js';
import type { SlidingWindowLimiter } from '../../shared/sliding-window.js';

export interface Limits {
  createsPerMinute: number;
  activeJobsPerUser: number;
  bodyMaxBytes: number;
}

export interface ServerContext {
  store: JobStore;
  keys: KeyStore;
  storage: OutputStorage;
  catalog: Catalog;
  /** Extension `presenters`: the built-in cast and each user's own. */
  presenters: PresenterRegistry;
  /** Extension `assets`: the creator's files. */
  assets: Assets;
  /** Extension `presenters`: the creator's photo presenters. */
  photoPresenters: PhotoPresenters;
  engine: RenderEngine | null;
  limits: Limits;
  limiter: SlidingWindowLimiter;
  hub: EventHub;
  /** Pages of GET /api/jobs until the user's jobs change; null where changes may come from other processes. */
  listCache: ListCache | null;
  version: string;
  /** Extension `output`: the resolution of a job whose request names none (the server's setting). */
  resolution: Resolution;
}
