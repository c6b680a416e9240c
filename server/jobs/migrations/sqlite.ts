// Schema versions of the embedded SQLite store (jobs and key hashes in studio.db). Append
// only: a released version never changes; a change to the schema is a new version.
import type { Migration } from './runner.js';

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'jobs, per-user counters, idempotency keys',
    sql: `
      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        status TEXT NOT NULL,
        search TEXT NOT NULL,          -- lower-cased text for q
        attempts INTEGER NOT NULL DEFAULT 0,
        worker_id TEXT,
        lease_until INTEGER,
        doc TEXT NOT NULL              -- the contract's Job as JSON
      ) WITHOUT ROWID;
      CREATE INDEX jobs_by_user ON jobs (user_id, id);
      CREATE INDEX jobs_by_user_status ON jobs (user_id, status, id);
      CREATE INDEX jobs_by_status ON jobs (status, id);
      CREATE TABLE user_counts (
        user_id TEXT NOT NULL,
        status TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (user_id, status)
      ) WITHOUT ROWID;
      CREATE TABLE idempotency (
        user_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        job_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, key)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'api key hashes',
    // IF NOT EXISTS: databases made before versioned migrations got this table from the key store.
    sql: `
      CREATE TABLE IF NOT EXISTS api_keys (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('user', 'service')),
        user_id TEXT,
        label TEXT,
        hash BLOB NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: 'job title (extension)',
    // The title is also in doc; the column keeps it queryable without parsing the JSON.
    sql: `ALTER TABLE jobs ADD COLUMN title TEXT;`,
  },
  {
    version: 4,
    name: 'assets (extension)',
    // doc: the contract's Asset as JSON; size_bytes summed for the per-user quota.
    sql: `
      CREATE TABLE assets (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        search TEXT NOT NULL,          -- lower-cased name for q
        size_bytes INTEGER NOT NULL,
        doc TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX assets_by_user ON assets (user_id, id);
      CREATE INDEX assets_by_user_kind ON assets (user_id, kind, id);
    `,
  },
  {
    version: 5,
    name: 'photo presenters (extension)',
    // doc: the presenter as stored (server/presenters/photo-store.ts); the asset columns let the
    // asset store refuse to delete a portrait or mask a presenter uses.
    sql: `
      CREATE TABLE presenters (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        asset_id TEXT NOT NULL,
        mask_asset_id TEXT,
        doc TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX presenters_by_user ON presenters (user_id, id);
      CREATE INDEX presenters_by_asset ON presenters (user_id, asset_id);
      CREATE INDEX presenters_by_mask ON presenters (user_id, mask_asset_id);
    `,
  },
];
