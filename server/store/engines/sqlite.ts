import Database from 'better-sqlite3';
import type { Sql, SqlValue } from '../sql.ts';

/**
 * SQLite through better-sqlite3: synchronous calls wrapped in promises. One connection serves
 * everything, so a transaction must keep other callers out while it awaits: calls made outside a
 * transaction that is open wait for it to end, and transactions run one after another.
 */
export function sqliteSql(file: string): Sql {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');

  const statements = new Map<string, Database.Statement<SqlValue[]>>();
  const prepare = (text: string) => {
    let stmt = statements.get(text);
    if (!stmt) {
      stmt = db.prepare<SqlValue[]>(text);
      statements.set(text, stmt);
    }
    return stmt;
  };
  const direct = {
    all: <T>(text: string, params: readonly SqlValue[] = []) => prepare(text).all(...params) as T[],
    get: <T>(text: string, params: readonly SqlValue[] = []) => prepare(text).get(...params) as T | undefined,
    run: (text: string, params: readonly SqlValue[] = []) => prepare(text).run(...params).changes,
  };

  // Transactions queue on `chain`; `current` is the end of the one open now, which calls from
  // outside it wait for.
  let chain: Promise<void> = Promise.resolve();
  let current: Promise<void> | null = null;
  const outside = async <T>(call: () => T): Promise<T> => {
    while (current) await current;
    return call();
  };

  const inside: Sql = {
    engine: 'sqlite',
    all: async (text, params) => direct.all(text, params),
    get: async (text, params) => direct.get(text, params),
    run: async (text, params) => direct.run(text, params),
    // Already inside one: the work joins it.
    tx: (fn) => fn(inside),
    close: async () => {},
  };

  return {
    engine: 'sqlite',
    all: (text, params) => outside(() => direct.all(text, params)),
    get: (text, params) => outside(() => direct.get(text, params)),
    run: (text, params) => outside(() => direct.run(text, params)),
    async tx(fn) {
      const before = chain;
      let end!: () => void;
      const mine = new Promise<void>((resolve) => (end = resolve));
      chain = before.then(() => mine);
      await before;
      current = mine;
      db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(inside);
        db.exec('COMMIT');
        return out;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      } finally {
        current = null;
        end();
      }
    },
    close: async () => {
      db.close();
    },
  };
}
