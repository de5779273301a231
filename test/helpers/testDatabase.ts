import fs from 'node:fs';
import path from 'node:path';
import { openStore, type Sql } from '../../server/store/db.ts';
import { createDatabase } from './postgres.ts';

/** Where a data folder remembers its test database, so a restart on old data finds the same one. */
export const TEST_DATABASE_URL_FILE = '.test-database-url';

/** True when this run is the Postgres pass (BROWSERDESK_TEST_DB=postgres, npm run test:postgres). */
export const postgresMode = () => process.env.BROWSERDESK_TEST_DB === 'postgres';

/**
 * What a test server on `dataDir` adds to its environment for the database. SQLite mode, or
 * `env` names its own DATABASE_URL: nothing. Postgres mode: DATABASE_URL of a fresh database in
 * the run's shared Postgres (postgresGlobalSetup.ts) for a new data folder, and the same database
 * again for a data folder that had one (kept in <dataDir>/.test-database-url).
 */
export async function testDatabaseEnv(
  env: Record<string, string | undefined>,
  dataDir: string,
): Promise<Record<string, string>> {
  if (!postgresMode() || env.DATABASE_URL) return {};
  const file = path.join(dataDir, TEST_DATABASE_URL_FILE);
  let url: string | undefined;
  try {
    url = fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    // a new data folder
  }
  if (!url) {
    // Loaded here only: 'vitest' cannot be used outside a test run (bench/ uses these helpers too).
    const { inject } = await import('vitest');
    const adminUrl = inject('postgresAdminUrl');
    if (!adminUrl)
      throw new Error(
        'BROWSERDESK_TEST_DB=postgres but no Postgres was provided: is test/helpers/postgresGlobalSetup.ts in vitest.config.ts globalSetup?',
      );
    url = await createDatabase(adminUrl);
    fs.writeFileSync(file, url + '\n');
  }
  return { DATABASE_URL: url };
}

/**
 * Every byte the server's store holds on disk: the SQLite file with its WAL, or, on Postgres, the
 * cluster's data files after a checkpoint (the cluster's folder is the socket folder in the URL).
 */
export async function storeBytes(server: {
  app: { db: Sql; config: { DATABASE_URL?: string } };
  dataDir: string;
}): Promise<Buffer> {
  const files: string[] = [];
  if (server.app.db.engine === 'sqlite') {
    for (const f of ['browserdesk.db', 'browserdesk.db-wal', 'browserdesk.db-shm'])
      files.push(path.join(server.dataDir, f));
  } else {
    await server.app.db.run('CHECKPOINT');
    const socketDir = new URL(server.app.config.DATABASE_URL!).searchParams.get('host')!;
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) files.push(p);
      }
    };
    for (const sub of ['base', 'pg_wal']) walk(path.join(socketDir, 'data', sub));
  }
  // A file may go between the listing and the read (Postgres drops and rewrites pg_internal.init,
  // and WAL segments are recycled): what is gone holds nothing to find.
  return Buffer.concat(files.map(readIfThere));
}

function readIfThere(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw err;
  }
}

/** The store of a stopped test server's data folder, on its engine (to edit rows between two starts). */
export async function openStoreOf(dataDir: string): Promise<Sql> {
  let databaseUrl: string | undefined;
  try {
    databaseUrl = fs.readFileSync(path.join(dataDir, TEST_DATABASE_URL_FILE), 'utf8').trim() || undefined;
  } catch {
    // SQLite: the file in the data folder
  }
  return openStore({ dataDir, databaseUrl });
}
