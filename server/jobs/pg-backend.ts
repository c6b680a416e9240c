// The shared backend of a fleet: the PostgreSQL job store and the key store on one pool.
import { PgKeyStore } from '../keys/pg-key-store.js';
import { PostgresJobStore } from './postgres-store.js';

/** The database URL of a run: `--database`, else DATABASE_URL; null means the embedded SQLite. */
export function databaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  const postgres = (url: string) => /^postgres(ql)?:\/\//.test(url);
  if (flag !== undefined) {
    if (!postgres(flag)) throw new Error('--database must be a postgres:// URL');
    return flag;
  }
  // DATABASE_URL may be set for some other program (mysql://…): only a postgres URL is ours.
  return env.DATABASE_URL && postgres(env.DATABASE_URL) ? env.DATABASE_URL : null;
}

export interface PgBackend {
  store: PostgresJobStore;
  keys: PgKeyStore;
  close(): Promise<void>;
}

export async function openPostgres(url: string, options: { poolSize?: number; onError?: (err: Error) => void } = {}): Promise<PgBackend> {
  const store = await PostgresJobStore.open({ url, ...options });
  return { store, keys: new PgKeyStore(store.pool), close: () => store.close() };
}
