import fs from 'node:fs';
import path from 'node:path';
import type { Sql } from './sql.ts';
import { sqliteSql } from './engines/sqlite.ts';

export type { Sql } from './sql.ts';
export { nowIso } from './sql.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

/**
 * The store: Postgres when `databaseUrl` is set (every node of a cluster shares it), else
 * DATA_DIR/browserdesk.db in SQLite, created on first start with nothing to set up. Either way
 * its schema is brought up to date before it is handed out.
 */
export async function openStore(opts: { dataDir: string; databaseUrl?: string }): Promise<Sql> {
  let sql: Sql;
  if (opts.databaseUrl) {
    // Loaded only for Postgres: pg is about 150 ms and 15 MB a SQLite server does not need.
    const { postgresSql } = await import('./engines/postgres.ts');
    sql = postgresSql(opts.databaseUrl);
  } else {
    fs.mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    sql = sqliteSql(path.join(opts.dataDir, 'browserdesk.db'));
  }
  try {
    await migrate(sql);
  } catch (err) {
    await sql.close();
    throw err;
  }
  return sql;
}

/**
 * The numbered .sql files beside this module, each applied once, in order, in a transaction.
 * A file `NNN_name.postgres.sql` stands in for `NNN_name.sql` on Postgres where the dialects
 * differ (an identity column, bytea for blobs). SQLite records the last version applied in
 * PRAGMA user_version; Postgres in the schema_version table, under an advisory lock so that
 * nodes starting together migrate once.
 */
export async function migrate(sql: Sql): Promise<void> {
  const files = new Map<number, string>();
  for (const file of fs.readdirSync(MIGRATIONS_DIR)) {
    const m = /^(\d{3})_.+?(\.postgres)?\.sql$/.exec(file);
    if (!m) continue;
    const version = Number(m[1]);
    const variant = Boolean(m[2]);
    if (variant && sql.engine !== 'postgres') continue;
    if (!variant && files.has(version)) continue; // this engine's own variant is already chosen
    files.set(version, file);
  }
  await sql.tx(async (tx) => {
    const current = await schemaVersion(tx);
    for (const [version, file] of [...files].sort((a, b) => a[0] - b[0])) {
      if (version <= current) continue;
      await execScript(tx, fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8'));
      await setSchemaVersion(tx, version);
    }
  });
}

async function schemaVersion(tx: Sql): Promise<number> {
  if (tx.engine === 'sqlite') return (await tx.get<{ user_version: number }>('PRAGMA user_version'))!.user_version;
  // Held to the end of the transaction: a second node waits here, then finds the work done.
  await tx.get('SELECT pg_advisory_xact_lock(7415007)');
  await tx.run('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  return (await tx.get<{ v: number | null }>('SELECT max(version) AS v FROM schema_version'))?.v ?? 0;
}

async function setSchemaVersion(tx: Sql, version: number): Promise<void> {
  if (tx.engine === 'sqlite') await tx.run(`PRAGMA user_version = ${version}`);
  else await tx.run('INSERT INTO schema_version (version) VALUES (?)', [version]);
}

/** A migration file may hold several statements; they are split on the semicolons that end lines. */
async function execScript(tx: Sql, script: string): Promise<void> {
  const withoutComments = script.replace(/--.*$/gm, '');
  for (const statement of withoutComments.split(/;\s*$/m)) {
    if (statement.trim()) await tx.run(statement);
  }
}
