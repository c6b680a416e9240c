// Runs schema migrations at start-up, for both stores. Applied versions are recorded in
// schema_migrations; running again is a no-op, and processes starting at the same time
// take turns (SQLite: one write transaction; PostgreSQL: an advisory lock), so each version
// is applied exactly once.
import type { SqliteDatabase } from '../sqlite-db.js';
import type pg from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at text NOT NULL
)`;

/** Lock id for migrations (any constant; schemas of one database take turns too). */
const PG_LOCK = 0x5053_4d47; // "PSMG"

export class MigrationError extends Error {}

function check(migrations: readonly Migration[], applied: number[]): Migration[] {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const unknown = applied.filter((v) => v > latest);
  // A newer release migrated this database: refuse rather than run old code on a new schema.
  if (unknown.length) throw new MigrationError(`the database has schema version ${Math.max(...unknown)}, newer than this release (${latest})`);
  return migrations.filter((m) => !applied.includes(m.version));
}

/** Migrates a SQLite database; returns the versions applied now. */
export function migrateSqlite(db: SqliteDatabase, migrations: readonly Migration[]): number[] {
  return db.immediate((): number[] => {
    db.exec(CREATE_TABLE);
    let applied = db.prepare('SELECT version FROM schema_migrations').values<number>();
    // Databases from before schema_migrations recorded their version in user_version.
    const legacy = db.prepare('PRAGMA user_version').value<number>() ?? 0;
    if (applied.length === 0 && legacy > 0) {
      const adopt = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
      for (const m of migrations.filter((m) => m.version <= legacy)) adopt.run(m.version, `${m.name} (adopted)`, new Date().toISOString());
      applied = migrations.filter((m) => m.version <= legacy).map((m) => m.version);
    }
    const pending = check(migrations, applied);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    }
    const latest = migrations[migrations.length - 1]?.version ?? 0;
    if (latest > legacy) db.exec(`PRAGMA user_version = ${latest}`);
    return pending.map((m) => m.version);
  });
}

/** Migrates the current schema of a PostgreSQL database; returns the versions applied now. */
export async function migratePostgres(client: pg.ClientBase, migrations: readonly Migration[]): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [PG_LOCK]);
  try {
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const pending = check(
      migrations,
      rows.map((r) => r.version),
    );
    for (const m of pending) {
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          new Date().toISOString(),
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
    return pending.map((m) => m.version);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PG_LOCK]);
  }
}
