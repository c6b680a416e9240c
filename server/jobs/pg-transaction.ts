// One transaction on a pooled PostgreSQL connection, for the stores beside the job store
// (assets, photo presenters).
import type pg from 'pg';

export async function pgTransaction<T>(pool: pg.Pool, body: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const out = await body(c);
    await c.query('COMMIT');
    c.release();
    return out;
  } catch (err) {
    // Released with its error, the connection is closed, which ends its transaction on the server:
    // nothing of it is kept, and the transaction's own error is the one reported.
    c.release(err as Error);
    throw err;
  }
}
