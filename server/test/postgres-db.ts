// PostgreSQL for tests: TEST_DATABASE_URL (scripts/test.mjs sets it from
// scripts/test-postgres.sh), else that script is run here once. Each caller gets its own
// schema, so suites running at once never see each other's jobs or notifications.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

let resolved: string | null | undefined;

/** The test database URL, or null when no PostgreSQL can be started on this machine. */
export function testDatabaseUrl(): string | null {
  if (resolved !== undefined) return resolved;
  resolved = process.env.TEST_DATABASE_URL || null;
  if (!resolved) {
    try {
      const script = new URL('../../scripts/test-postgres.sh', import.meta.url).pathname;
      resolved = execFileSync(script, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim() || null;
    } catch (err) {
      if (process.env.CI) throw new Error(`CI must run the PostgreSQL tests, but PostgreSQL could not be started: ${(err as Error).message}`, { cause: err });
      resolved = null;
    }
  }
  return resolved;
}

export const NO_POSTGRES = 'skipped: no PostgreSQL could be started here (install the Debian package postgresql, run as root, or set TEST_DATABASE_URL)';

/** A URL whose connections use a new, empty schema; drop() removes it with everything in it. */
export async function freshSchema(base = testDatabaseUrl()): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  if (!base) throw new Error(NO_POSTGRES);
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    // Schemas left by test processes that died (kill, crash) before dropping theirs.
    const { rows } = await admin.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname ~ '^t_[0-9]+_[0-9a-f]{8}$'");
    for (const { nspname } of rows) {
      if (!alive(Number(nspname.split('_')[1]))) await admin.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`).catch(() => undefined);
    }
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: u.toString(),
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
