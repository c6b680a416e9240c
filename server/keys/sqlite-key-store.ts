// Keys in the same SQLite file as the jobs (table api_keys), hashes only.
import type { SqliteDatabase } from '../jobs/sqlite-db.js';
import type { KeyKind, KeyRecord, KeyStore } from './key-store.js';
import { hashKey, KEY_PATTERN, keyRowToRecord, newKey, parseKeyRow, readKeyRecord, sameHash } from './key-store.js';


export class SqliteKeyStore implements KeyStore {
  private readonly s;
  private readonly verified = new Map<string, KeyRecord>();
  private cacheVersion = -1;
  private readonly dataVersion;

  constructor(db: SqliteDatabase) {
    // The api_keys table comes from the migrations, which openDatabase runs.
    this.dataVersion = db.prepare('PRAGMA data_version');
    this.s = {
      insert: db.prepare('INSERT INTO api_keys (id, kind, user_id, label, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      all: db.prepare('SELECT * FROM api_keys ORDER BY created_at, id'),
      get: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    };
  }

  async create(input: { kind: KeyKind; userId: string | null; label?: string | null }) {
    const { id, key } = newKey();
    const createdAt = new Date().toISOString();
    this.s.insert.run(id, input.kind, input.kind === 'user' ? input.userId : null, input.label ?? null, hashKey(key), createdAt);
    return { record: readKeyRecord(this.s.get.get(id)), key };
  }

  async list(): Promise<KeyRecord[]> {
    return this.s.all.all().map(readKeyRecord);
  }

  async revoke(id: string): Promise<boolean> {
    this.verified.clear();
    return this.s.revoke.run(new Date().toISOString(), id).changes === 1;
  }

  async verify(presented: string): Promise<KeyRecord | null> {
    const m = KEY_PATTERN.exec(presented);
    if (!m) return null;
    const hash = hashKey(presented);
    // Verified keys are remembered by hash until the database changes from another connection
    // (e.g. `keys revoke` in the CLI bumps PRAGMA data_version) or this store revokes one.
    const version = this.dataVersion.value<number>() ?? 0;
    if (version !== this.cacheVersion) {
      this.verified.clear();
      this.cacheVersion = version;
    }
    const digest = hash.toString('base64');
    const known = this.verified.get(digest);
    if (known) return known;
    const raw = this.s.get.get(m[1]);
    if (raw === undefined) return null;
    const row = parseKeyRow(raw);
    if (row.revoked_at) return null;
    if (!sameHash(hash, row.hash)) return null;
    const record = keyRowToRecord(row);
    if (this.verified.size >= 1000) this.verified.clear();
    this.verified.set(digest, record);
    return record;
  }
}
