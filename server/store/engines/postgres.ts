import pg from 'pg';
import type { Sql, SqlValue } from '../sql.ts';

// int8 (count(*), epoch milliseconds, identity columns) comes back as a number, as SQLite gives it:
// every value we keep fits a double exactly.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** `?` placeholders (outside quoted text) as Postgres' `$1, $2, …`. */
export function numberPlaceholders(text: string): string {
  let n = 0;
  let quoted = false;
  let out = '';
  for (const ch of text) {
    if (ch === "'") quoted = !quoted;
    out += ch === '?' && !quoted ? `$${++n}` : ch;
  }
  return out;
}

const converted = new Map<string, string>();
const pgText = (text: string) => {
  let out = converted.get(text);
  if (out === undefined) {
    out = numberPlaceholders(text);
    converted.set(text, out);
  }
  return out;
};

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

function over(conn: Queryable, tx: Sql['tx']): Sql {
  const query = (text: string, params: readonly SqlValue[] = []) => conn.query(pgText(text), params as SqlValue[]);
  return {
    engine: 'postgres',
    all: async <T>(text: string, params?: readonly SqlValue[]) => (await query(text, params)).rows as T[],
    get: async <T>(text: string, params?: readonly SqlValue[]) => (await query(text, params)).rows[0] as T | undefined,
    run: async (text, params) => (await query(text, params)).rowCount ?? 0,
    tx,
    close: async () => {},
  };
}

/** Postgres through a pg pool: each transaction holds one pooled connection from BEGIN to COMMIT. */
export function postgresSql(connectionString: string): Sql {
  const pool = new pg.Pool({ connectionString, types, max: 10 });
  // An idle connection that drops (the server restarting) must not take the process down.
  pool.on('error', () => {});
  const tx: Sql['tx'] = async (fn) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Nested tx() joins this one.
      const inside: Sql = over(client, (inner) => inner(inside));
      const out = await fn(inside);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  };
  return { ...over(pool, tx), close: () => pool.end() };
}
