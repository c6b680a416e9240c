// The rows of the creator's assets, in the job store's database (SQLite embedded, PostgreSQL for
// a team; table `assets`, server/jobs/migrations). A row is written only once the asset's files
// are in storage, and the quota is checked in the same transaction as the insert. Deleting
// checks the user's queued and rendering jobs: one whose scenes, music or brand name the asset keeps it; so does
// a photo presenter made from it (table `presenters`, server/presenters/photo-store.ts).
import type pg from 'pg';
import { Asset, ASSET_ID_PATTERN, Job, type AssetKind } from '../../shared/contract/index.js';
import { pgTransaction } from '../jobs/pg-transaction.js';
import type { SqliteDatabase } from '../jobs/sqlite-db.js';

/** An asset as stored: the contract's Asset plus its owner. */
export type StoredAsset = Asset & { userId: string };

export interface AssetPageQuery {
  userId: string;
  kind?: AssetKind;
  /** Case-insensitive "contains" on the name. */
  q?: string;
  limit: number;
  /** Assets with ids strictly below this one (newest first). */
  beforeId?: string;
}

export type InsertResult = { ok: true } | { ok: false; usedBytes: number };
export type RemoveResult =
  | { ok: true; asset: StoredAsset }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'in_use'; jobIds: string[] }
  /** A photo presenter of the user is made from it (its portrait or cut-out mask). */
  | { ok: false; reason: 'presenter'; presenterIds: string[] };

export interface AssetStore {
  /** Inserts the row unless the user's assets would then pass `quotaBytes` together. */
  insert(asset: StoredAsset, quotaBytes: number): Promise<InsertResult>;
  /** The asset if it belongs to `userId`. */
  get(id: string, userId: string): Promise<StoredAsset | null>;
  list(query: AssetPageQuery): Promise<{ assets: StoredAsset[]; nextBeforeId: string | null }>;
  /** Bytes of all the user's assets. */
  usedBytes(userId: string): Promise<number>;
  /** Removes the row, unless a queued or rendering job of the user names the asset (scenes, music, brand), or a photo presenter of the user is made from it. */
  remove(id: string, userId: string): Promise<RemoveResult>;
}

interface AssetRow {
  user_id: string;
  doc: string;
}

function fromRow(row: AssetRow): StoredAsset {
  return { ...Asset.parse(JSON.parse(row.doc)), userId: row.user_id };
}

function rowOf(a: StoredAsset) {
  const { userId, ...asset } = a;
  return { id: a.id, user_id: userId, kind: a.kind, search: a.name.toLowerCase(), size_bytes: a.sizeBytes, doc: JSON.stringify(asset) };
}

/** Ids of the active jobs (their stored documents) whose scenes, music or brand (logo, font) use the asset. */
function jobsUsing(assetId: string, docs: string[]): string[] {
  const out: string[] = [];
  for (const doc of docs) {
    const job = Job.safeParse(JSON.parse(doc));
    const brand = job.success ? job.data.brand : undefined;
    const inBrand = brand?.logo?.assetId === assetId || brand?.font === assetId;
    const inMusic = job.success && job.data.music?.assetId === assetId;
    if (job.success && (inBrand || inMusic || job.data.scenes?.some((s) => s.background?.assetId === assetId))) out.push(job.data.id);
  }
  return out;
}

const ACTIVE = "status IN ('queued', 'rendering')";

/**
 * What `q` looks for in the lower-cased names. Names never hold U+0000 (cleaned); a q with one
 * matches nothing, as U+FFFF (PostgreSQL text cannot hold U+0000, SQLite's instr stops at it).
 */
const searchTerm = (q: string) => q.toLowerCase().replaceAll('\0', '\uFFFF');

export class SqliteAssetStore implements AssetStore {
  private readonly s;
  private readonly lists = new Map<string, ReturnType<SqliteDatabase['prepare']>>();

  constructor(private readonly db: SqliteDatabase) {
    this.s = {
      insert: db.prepare('INSERT INTO assets (id, user_id, kind, search, size_bytes, doc) VALUES (@id, @user_id, @kind, @search, @size_bytes, @doc)'),
      get: db.prepare('SELECT user_id, doc FROM assets WHERE id = ? AND user_id = ?'),
      used: db.prepare('SELECT coalesce(sum(size_bytes), 0) FROM assets WHERE user_id = ?'),
      remove: db.prepare('DELETE FROM assets WHERE id = ? AND user_id = ?'),
      // instr narrows to the jobs whose document mentions the id; jobsUsing reads their scenes.
      activeDocs: db.prepare(`SELECT doc FROM jobs WHERE user_id = ? AND ${ACTIVE} AND instr(doc, ?) > 0`),
      presenters: db.prepare('SELECT id FROM presenters WHERE user_id = ? AND (asset_id = ? OR mask_asset_id = ?) ORDER BY id'),
    };
  }

  async insert(asset: StoredAsset, quotaBytes: number): Promise<InsertResult> {
    return this.db.immediate(() => {
      const used = Number(this.s.used.value<number>(asset.userId) ?? 0);
      if (used + asset.sizeBytes > quotaBytes) return { ok: false, usedBytes: used };
      this.s.insert.run(rowOf(asset));
      return { ok: true };
    });
  }

  async get(id: string, userId: string): Promise<StoredAsset | null> {
    if (!ASSET_ID_PATTERN.test(id)) return null;
    const row = this.s.get.get(id, userId) as AssetRow | undefined;
    return row ? fromRow(row) : null;
  }

  async list(query: AssetPageQuery) {
    const where = ['user_id = ?'];
    const args: unknown[] = [query.userId];
    const and = (clause: string, value: unknown) => {
      where.push(clause);
      args.push(value);
    };
    if (query.kind) and('kind = ?', query.kind);
    if (query.q) and('instr(search, ?) > 0', searchTerm(query.q));
    if (query.beforeId) and('id < ?', query.beforeId);
    const sql = `SELECT user_id, doc FROM assets WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`;
    let stmt = this.lists.get(sql);
    if (!stmt) this.lists.set(sql, (stmt = this.db.prepare(sql)));
    const rows = stmt.all(...args, query.limit + 1) as AssetRow[];
    const assets = rows.slice(0, query.limit).map(fromRow);
    return { assets, nextBeforeId: rows.length > query.limit ? assets[assets.length - 1]!.id : null };
  }

  async usedBytes(userId: string): Promise<number> {
    return Number(this.s.used.value<number>(userId) ?? 0);
  }

  async remove(id: string, userId: string): Promise<RemoveResult> {
    return this.db.immediate((): RemoveResult => {
      const row = this.s.get.get(id, userId) as AssetRow | undefined;
      if (!row) return { ok: false, reason: 'not_found' };
      const jobIds = jobsUsing(id, (this.s.activeDocs.all(userId, id) as { doc: string }[]).map((r) => r.doc));
      if (jobIds.length) return { ok: false, reason: 'in_use', jobIds };
      const presenterIds = (this.s.presenters.all(userId, id, id) as { id: string }[]).map((r) => r.id);
      if (presenterIds.length) return { ok: false, reason: 'presenter', presenterIds };
      this.s.remove.run(id, userId);
      return { ok: true, asset: fromRow(row) };
    });
  }
}

export class PgAssetStore implements AssetStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(asset: StoredAsset, quotaBytes: number): Promise<InsertResult> {
    return pgTransaction(this.pool, async (c) => {
      // One user's inserts take turns, so two uploads cannot both pass the quota.
      await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`ps-assets:${asset.userId}`]);
      const used = Number((await c.query<{ n: string }>('SELECT coalesce(sum(size_bytes), 0) AS n FROM assets WHERE user_id = $1', [asset.userId])).rows[0]!.n);
      if (used + asset.sizeBytes > quotaBytes) return { ok: false, usedBytes: used };
      const r = rowOf(asset);
      await c.query('INSERT INTO assets (id, user_id, kind, search, size_bytes, doc) VALUES ($1, $2, $3, $4, $5, $6)', [
        r.id, r.user_id, r.kind, r.search, r.size_bytes, r.doc,
      ]);
      return { ok: true };
    });
  }

  async get(id: string, userId: string): Promise<StoredAsset | null> {
    if (!ASSET_ID_PATTERN.test(id)) return null; // names no asset (and keeps U+0000, which PostgreSQL text refuses, out of queries)
    const { rows } = await this.pool.query<AssetRow>('SELECT user_id, doc FROM assets WHERE id = $1 AND user_id = $2', [id, userId]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async list(query: AssetPageQuery) {
    const args: unknown[] = [query.userId];
    const where = ['user_id = $1'];
    const and = (clause: (n: string) => string, value: unknown) => {
      args.push(value);
      where.push(clause(`$${args.length}`));
    };
    if (query.kind) and((n) => `kind = ${n}`, query.kind);
    if (query.q) and((n) => `strpos(search, ${n}) > 0`, searchTerm(query.q));
    if (query.beforeId) and((n) => `id < ${n}`, query.beforeId);
    args.push(query.limit + 1);
    const { rows } = await this.pool.query<AssetRow>(
      `SELECT user_id, doc FROM assets WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${args.length}`,
      args,
    );
    const assets = rows.slice(0, query.limit).map(fromRow);
    return { assets, nextBeforeId: rows.length > query.limit ? assets[assets.length - 1]!.id : null };
  }

  async usedBytes(userId: string): Promise<number> {
    return Number((await this.pool.query<{ n: string }>('SELECT coalesce(sum(size_bytes), 0) AS n FROM assets WHERE user_id = $1', [userId])).rows[0]!.n);
  }

  async remove(id: string, userId: string): Promise<RemoveResult> {
    return pgTransaction(this.pool, async (c): Promise<RemoveResult> => {
      const { rows } = await c.query<AssetRow>('SELECT user_id, doc FROM assets WHERE id = $1 AND user_id = $2 FOR UPDATE', [id, userId]);
      if (!rows[0]) return { ok: false, reason: 'not_found' };
      const docs = await c.query<{ doc: string }>(`SELECT doc FROM jobs WHERE user_id = $1 AND ${ACTIVE} AND strpos(doc, $2) > 0`, [userId, id]);
      const jobIds = jobsUsing(id, docs.rows.map((r) => r.doc));
      if (jobIds.length) return { ok: false, reason: 'in_use', jobIds };
      const presenters = await c.query<{ id: string }>('SELECT id FROM presenters WHERE user_id = $1 AND (asset_id = $2 OR mask_asset_id = $2) ORDER BY id', [userId, id]);
      if (presenters.rows.length) return { ok: false, reason: 'presenter', presenterIds: presenters.rows.map((r) => r.id) };
      await c.query('DELETE FROM assets WHERE id = $1 AND user_id = $2', [id, userId]);
      return { ok: true, asset: fromRow(rows[0]) };
    });
  }
}
