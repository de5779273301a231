import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Sql } from '../../server/store/db.ts';
import { testDatabaseEnv } from './testDatabase.ts';

/**
 * A store of the calling test file's own, without a server: opened before its tests in a temp
 * folder (SQLite there; in the Postgres pass a database of its own), closed and removed after.
 * Read `store.sql` inside the tests, once it is open.
 */
export function storeForFile(prefix: string): { readonly sql: Sql } {
  let dataDir: string | undefined;
  let sql: Sql | undefined;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    sql = await openStore({ dataDir, databaseUrl: (await testDatabaseEnv({}, dataDir)).DATABASE_URL });
  });
  afterAll(async () => {
    await sql?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get sql() {
      if (!sql) throw new Error('the store is opened in beforeAll: read it inside a test');
      return sql;
    },
  };
}
