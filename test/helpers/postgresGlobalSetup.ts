import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

/**
 * Vitest globalSetup: in postgres mode (BROWSERDESK_TEST_DB=postgres) one throwaway Postgres for
 * the whole run, its admin URL handed to the test workers as inject('postgresAdminUrl')
 * (testDatabaseEnv makes a database in it per server data folder); stopped at teardown.
 * The default (SQLite) mode starts nothing.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.BROWSERDESK_TEST_DB !== 'postgres') return undefined;
  const postgres = await startPostgres();
  project.provide('postgresAdminUrl', postgres.adminUrl);
  return () => postgres.stop();
}
