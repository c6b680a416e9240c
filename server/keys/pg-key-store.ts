// Keys in PostgreSQL (table api_keys, made by the job store's migrations), hashes only: with
// a shared database every API process accepts the same keys.
import type pg from 'pg';
import type { KeyKind, KeyRecord, KeyStore } from './key-store.js';
import { hashKey, KEY_PATTERN, keyRowToRecord, newKey, parseKeyRow, readKeyRecord, sameHash } from './key-store.js';


export class PgKeyStore implements KeyStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(input: { kind: KeyKind; userId: string | null; label?: string | null }) {
    const { id, key } = newKey();
    const { rows } = await this.pool.query(
      'INSERT INTO api_keys (id, kind, user_id, label, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [id, input.kind, input.kind === 'user' ? input.userId : null, input.label ?? null, hashKey(key), new Date().toISOString()],
    );
    return { record: readKeyRecord(rows[0]!), key };
  }

  async list(): Promise<KeyRecord[]> {
    return (await this.pool.query('SELECT * FROM api_keys ORDER BY created_at, id')).rows.map(readKeyRecord);
  }

  async revoke(id: string): Promise<boolean> {
    const r = await this.pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [new Date().toISOString(), id]);
    return r.rowCount === 1;
  }

  async verify(presented: string): Promise<KeyRecord | null> {
    const m = KEY_PATTERN.exec(presented);
    if (!m) return null;
    const raw: unknown = (await this.pool.query('SELECT * FROM api_keys WHERE id = $1', [m[1]])).rows[0];
    if (raw === undefined) return null;
    const row = parseKeyRow(raw);
    if (row.revoked_at) return null;
    return sameHash(hashKey(presented), row.hash) ? keyRowToRecord(row) : null;
  }
}
