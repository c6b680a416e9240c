// Schema versions of the PostgreSQL store (jobs, counters, idempotency keys, key hashes).
// Append only. Ids and user ids compare bytewise (COLLATE "C") so keyset paging orders them
// exactly as SQLite does, whatever the database's locale.
import type { Migration } from './runner.js';

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'jobs, per-user counters, idempotency keys, api keys',
    sql: `
      CREATE TABLE jobs (
        id text COLLATE "C" PRIMARY KEY,
        user_id text COLLATE "C" NOT NULL,
        status text NOT NULL,
        search text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        worker_id text,
        lease_until bigint,
        doc text NOT NULL
      );
      CREATE INDEX jobs_by_user ON jobs (user_id, id);
      CREATE INDEX jobs_by_user_status ON jobs (user_id, status, id);
      CREATE INDEX jobs_queued ON jobs (id) WHERE status = 'queued';
      CREATE INDEX jobs_leases ON jobs (lease_until) WHERE status = 'rendering';
      CREATE TABLE user_counts (
        user_id text COLLATE "C" NOT NULL,
        status text NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (user_id, status)
      );
      CREATE TABLE idempotency (
        user_id text COLLATE "C" NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        job_id text NOT NULL,
        created_at bigint NOT NULL,
        PRIMARY KEY (user_id, key)
      );
      CREATE INDEX idempotency_by_age ON idempotency (created_at);
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('user', 'service')),
        user_id text,
        label text,
        hash bytea NOT NULL,
        created_at text NOT NULL,
        revoked_at text
      );
    `,
  },
  {
    version: 2,
    name: 'job title (extension)',
    // The title is also in doc; the column keeps it queryable without parsing the JSON.
    sql: `ALTER TABLE jobs ADD COLUMN title text;`,
  },
  {
    version: 3,
    name: 'assets (extension)',
    // doc: the contract's Asset as JSON; size_bytes summed for the per-user quota.
    sql: `
      CREATE TABLE assets (
        id text COLLATE "C" PRIMARY KEY,
        user_id text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        search text NOT NULL,
        size_bytes bigint NOT NULL,
        doc text NOT NULL
      );
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
        id text COLLATE "C" PRIMARY KEY,
        user_id text COLLATE "C" NOT NULL,
        asset_id text COLLATE "C" NOT NULL,
        mask_asset_id text COLLATE "C",
        doc text NOT NULL
      );
      CREATE INDEX presenters_by_user ON presenters (user_id, id);
      CREATE INDEX presenters_by_asset ON presenters (user_id, asset_id);
      CREATE INDEX presenters_by_mask ON presenters (user_id, mask_asset_id);
    `,
  },
];
