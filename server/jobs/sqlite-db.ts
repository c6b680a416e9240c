// The SQLite connection the embedded stores use: node:sqlite's API through
// @photostructure/sqlite, an N-API build with prebuilt binaries inside its npm package, so one
// file loads in Node and in Electron's Node alike (no rebuild per Electron ABI). This module
// adds the few conveniences the stores are written with (prepared statements returning rows or
// arrays, transactions that begin IMMEDIATE, one-value reads) and nothing else.
import { DatabaseSync, type DatabaseSyncInstance, type StatementSyncInstance } from '@photostructure/sqlite';

type Param = null | number | bigint | string | Uint8Array;
/** Positional values, or one object of named values (`@name` in the SQL); the driver checks types. */
type Params = unknown[];

export class Statement {
  constructor(private readonly st: StatementSyncInstance) {}

  /** Rows as arrays of column values instead of objects (cheaper for wide reads). */
  raw(on = true): this {
    this.st.setReturnArrays(on);
    return this;
  }

  run(...params: Params): { changes: number } {
    const r = this.st.run(...(params as Param[]));
    return { changes: Number(r.changes) };
  }

  get(...params: Params): unknown {
    return this.st.get(...(params as Param[]));
  }

  all(...params: Params): unknown[] {
    return this.st.all(...(params as Param[]));
  }

  /** The first column of the first row (undefined when there is no row). */
  value<T>(...params: Params): T | undefined {
    this.st.setReturnArrays(true);
    const row = this.st.get(...(params as Param[])) as T[] | undefined;
    return row?.[0];
  }

  /** The first column of every row. */
  values<T>(...params: Params): T[] {
    this.st.setReturnArrays(true);
    return (this.st.all(...(params as Param[])) as T[][]).map((r) => r[0]!);
  }
}

export class SqliteDatabase {
  private readonly db: DatabaseSyncInstance;

  constructor(file: string) {
    this.db = new DatabaseSync(file);
  }

  prepare(sql: string): Statement {
    return new Statement(this.db.prepare(sql));
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  /**
   * Runs fn in a transaction that takes the write lock at once (BEGIN IMMEDIATE), so two
   * processes on one file never deadlock upgrading a read; rolled back if fn throws.
   */
  immediate<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
