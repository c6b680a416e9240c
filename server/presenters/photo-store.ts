// The rows of the creator's photo presenters (extension `presenters`), in the job store's
// database (table `presenters`, server/jobs/migrations): a portrait asset, its Face Mesh points
// and the optional cut-out mask, per user. The per-user limit is checked in the same transaction
// as the insert. Deleting checks the user's queued and rendering jobs: one that names the
// presenter keeps it. The asset store refuses to delete an asset a presenter uses.
import type pg from 'pg';
import { z } from 'zod';
import { Job, PHOTO_PRESENTER_ID_PATTERN as PRESENTER_ID_PATTERN } from '../../shared/contract/index.js';
import { pgTransaction } from '../jobs/pg-transaction.js';
import type { SqliteDatabase } from '../jobs/sqlite-db.js';

/** A photo presenter as stored. */
export const PhotoPresenterRecord = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  assetId: z.string(),
  maskAssetId: z.string().nullable(),
  /** [x, y] per point, fractions of the portrait (depth is not kept: the rig draws in 2D). */
  landmarks: z.array(z.tuple([z.number(), z.number()])),
  createdAt: z.string(),
});
export type PhotoPresenterRecord = z.infer<typeof PhotoPresenterRecord>;

export type InsertPresenterResult = { ok: true } | { ok: false; count: number };
export type RemovePresenterResult = { ok: true } | { ok: false; reason: 'not_found' } | { ok: false; reason: 'in_use'; jobIds: string[] };

export interface PhotoPresenterStore {
  /** Inserts the row unless the user already has `limit` presenters. */
  insert(p: PhotoPresenterRecord, limit: number): Promise<InsertPresenterResult>;
  /** The presenter if it belongs to `userId`. */
  get(id: string, userId: string): Promise<PhotoPresenterRecord | null>;
  /** The user's presenters, oldest first. */
  list(userId: string): Promise<PhotoPresenterRecord[]>;
  /** Removes the row, unless a queued or rendering job of the user names the presenter. */
  remove(id: string, userId: string): Promise<RemovePresenterResult>;
}


interface Row {
  doc: string;
}
const fromRow = (row: Row): PhotoPresenterRecord => PhotoPresenterRecord.parse(JSON.parse(row.doc));
const rowOf = (p: PhotoPresenterRecord) => ({ id: p.id, user_id: p.userId, asset_id: p.assetId, mask_asset_id: p.maskAssetId, doc: JSON.stringify(p) });

/** Ids of the active jobs (their stored documents) that speak with the presenter. */
function jobsUsing(presenterId: string, docs: string[]): string[] {
  const out: string[] = [];
  for (const doc of docs) {
    const job = Job.safeParse(JSON.parse(doc));
    if (!job.success) continue;
    if (job.data.presenterId === presenterId || job.data.scenes?.some((s) => s.presenterId === presenterId)) out.push(job.data.id);
  }
  return out;
}

const ACTIVE = "status IN ('queued', 'rendering')";

export class SqlitePhotoPresenterStore implements PhotoPresenterStore {
  private readonly s;

  constructor(private readonly db: SqliteDatabase) {
    this.s = {
      insert: db.prepare('INSERT INTO presenters (id, user_id, asset_id, mask_asset_id, doc) VALUES (@id, @user_id, @asset_id, @mask_asset_id, @doc)'),
      count: db.prepare('SELECT count(*) FROM presenters WHERE user_id = ?'),
      get: db.prepare('SELECT doc FROM presenters WHERE id = ? AND user_id = ?'),
      list: db.prepare('SELECT doc FROM presenters WHERE user_id = ? ORDER BY id'),
      remove: db.prepare('DELETE FROM presenters WHERE id = ? AND user_id = ?'),
      // instr narrows to the jobs whose document mentions the id; jobsUsing reads them.
      activeDocs: db.prepare(`SELECT doc FROM jobs WHERE user_id = ? AND ${ACTIVE} AND instr(doc, ?) > 0`),
    };
  }

  async insert(p: PhotoPresenterRecord, limit: number): Promise<InsertPresenterResult> {
    return this.db.immediate((): InsertPresenterResult => {
      const count = Number(this.s.count.value<number>(p.userId) ?? 0);
      if (count >= limit) return { ok: false, count };
      this.s.insert.run(rowOf(p));
      return { ok: true };
    });
  }

  async get(id: string, userId: string): Promise<PhotoPresenterRecord | null> {
    if (!PRESENTER_ID_PATTERN.test(id)) return null;
    const row = this.s.get.get(id, userId) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  async list(userId: string): Promise<PhotoPresenterRecord[]> {
    return (this.s.list.all(userId) as Row[]).map(fromRow);
  }

  async remove(id: string, userId: string): Promise<RemovePresenterResult> {
    return this.db.immediate((): RemovePresenterResult => {
      if (!PRESENTER_ID_PATTERN.test(id) || !this.s.get.get(id, userId)) return { ok: false, reason: 'not_found' };
      const jobIds = jobsUsing(id, (this.s.activeDocs.all(userId, id) as Row[]).map((r) => r.doc));
      if (jobIds.length) return { ok: false, reason: 'in_use', jobIds };
      this.s.remove.run(id, userId);
      return { ok: true };
    });
  }
}

export class PgPhotoPresenterStore implements PhotoPresenterStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(p: PhotoPresenterRecord, limit: number): Promise<InsertPresenterResult> {
    return pgTransaction(this.pool, async (c): Promise<InsertPresenterResult> => {
      // One user's inserts take turns, so two cannot both pass the limit.
      await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`ps-presenters:${p.userId}`]);
      const count = Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM presenters WHERE user_id = $1', [p.userId])).rows[0]!.n);
      if (count >= limit) return { ok: false, count };
      const r = rowOf(p);
      await c.query('INSERT INTO presenters (id, user_id, asset_id, mask_asset_id, doc) VALUES ($1, $2, $3, $4, $5)', [r.id, r.user_id, r.asset_id, r.mask_asset_id, r.doc]);
      return { ok: true };
    });
  }

  async get(id: string, userId: string): Promise<PhotoPresenterRecord | null> {
    if (!PRESENTER_ID_PATTERN.test(id)) return null;
    const { rows } = await this.pool.query<Row>('SELECT doc FROM presenters WHERE id = $1 AND user_id = $2', [id, userId]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async list(userId: string): Promise<PhotoPresenterRecord[]> {
    const { rows } = await this.pool.query<Row>('SELECT doc FROM presenters WHERE user_id = $1 ORDER BY id', [userId]);
    return rows.map(fromRow);
  }

  async remove(id: string, userId: string): Promise<RemovePresenterResult> {
    if (!PRESENTER_ID_PATTERN.test(id)) return { ok: false, reason: 'not_found' };
    return pgTransaction(this.pool, async (c): Promise<RemovePresenterResult> => {
      const { rows } = await c.query<Row>('SELECT doc FROM presenters WHERE id = $1 AND user_id = $2 FOR UPDATE', [id, userId]);
      if (!rows[0]) return { ok: false, reason: 'not_found' };
      const docs = await c.query<Row>(`SELECT doc FROM jobs WHERE user_id = $1 AND ${ACTIVE} AND strpos(doc, $2) > 0`, [userId, id]);
      const jobIds = jobsUsing(id, docs.rows.map((r) => r.doc));
      if (jobIds.length) return { ok: false, reason: 'in_use', jobIds };
      await c.query('DELETE FROM presenters WHERE id = $1 AND user_id = $2', [id, userId]);
      return { ok: true };
    });
  }
}
