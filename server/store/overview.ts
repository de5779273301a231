import type { Sql } from './db.ts';

/** An ISO timestamp's hour, as the store's text columns hold it (`2026-11-25T18`): same on SQLite and Postgres. */
const HOUR = (column: string) => `substr(${column}, 1, 13)`;

export interface HourCount {
  hour: string;
  n: number;
}

/**
 * Counts over the sessions and runs tables for the dashboard's overview; reads only. Every
 * timestamp is ISO text in UTC (nowIso), so comparing and cutting it as text works on both engines.
 */
export function overviewRepo(sql: Sql) {
  return {
    /** Sessions starting or live, on every node sharing the store. */
    liveSessions: async () =>
      (await sql.get<{ n: number }>("SELECT count(*) AS n FROM sessions WHERE state IN ('starting', 'live')"))!.n,
    /** Unfinished runs (whatever their age), and finished ones that ended at or after `since`, by status. */
    runCounts: (since: string) =>
      sql.all<{ status: string; n: number }>(
        "SELECT status, count(*) AS n FROM runs WHERE status IN ('queued', 'running') OR (status IN ('succeeded', 'failed') AND completed_at >= ?) GROUP BY status",
        [since],
      ),
    /** Sessions started per hour from `from` on. */
    sessionsStartedByHour: (from: string) =>
      sql.all<HourCount>(
        `SELECT ${HOUR('created_at')} AS hour, count(*) AS n FROM sessions WHERE created_at >= ? GROUP BY ${HOUR('created_at')}`,
        [from],
      ),
    /** Finished runs per hour of their end from `from` on, by outcome. */
    runsEndedByHour: (from: string) =>
      sql.all<HourCount & { status: string }>(
        `SELECT ${HOUR('completed_at')} AS hour, status, count(*) AS n FROM runs WHERE status IN ('succeeded', 'failed') AND completed_at >= ? GROUP BY ${HOUR('completed_at')}, status`,
        [from],
      ),
  };
}
export type OverviewRepo = ReturnType<typeof overviewRepo>;
