import { z } from 'zod';
import { defineOperations } from './operation.ts';

/** Hours in the overview's chart: the last day, one bar per hour, the current hour last. */
export const OVERVIEW_HOURS = 24;

export const OverviewQuery = z.object({
  since: z.iso
    .datetime({ offset: true, message: 'since must be a date and time such as 2026-11-25T00:00:00+01:00' })
    .optional()
    .describe('Start of "today" for the run counts (the dashboard sends its own midnight); default: midnight UTC'),
});
export type OverviewQuery = z.infer<typeof OverviewQuery>;

/** One hour of the chart: sessions that started in it, runs that ended in it by outcome. */
export const OverviewBucket = z.object({
  start: z.iso.datetime().describe('Start of the hour (UTC)'),
  sessions_started: z.number().int(),
  runs_succeeded: z.number().int(),
  runs_failed: z.number().int(),
});
export type OverviewBucket = z.infer<typeof OverviewBucket>;

/** What the dashboard's home shows at a glance. Counts only: never an id, an address or a secret. */
export const Overview = z.object({
  generated_at: z.iso.datetime(),
  sessions: z.object({
    live: z.number().int().describe('Sessions starting or live, on every node sharing the store'),
  }),
  capacity: z.object({
    sessions: z.number().int().describe('Sessions starting or live on this node'),
    places: z
      .number()
      .int()
      .describe(
        "MAX_SESSIONS' places taken on this node: each browser session's browser, and each browser that context sessions share, whatever it holds",
      ),
    max_sessions: z.number().int().describe('MAX_SESSIONS of this node'),
    warm_pool: z.object({
      ready: z.number().int().describe('Browsers started and waiting for a session'),
      starting: z.number().int().describe('Browsers of the pool still starting'),
      target: z.number().int().describe('How many ready browsers the pool aims for now (grows with demand)'),
      size: z.number().int().describe('WARM_POOL_SIZE: the least it keeps (0: no pool)'),
      max: z.number().int().describe('WARM_POOL_MAX: the most it grows to'),
    }),
    draining: z
      .object({ since: z.iso.datetime(), deadline: z.iso.datetime() })
      .nullable()
      .describe('This node is draining before it stops (SIGTERM or POST /api/nodes/{id}/drain); null when not'),
  }),
  runs: z.object({
    since: z.iso.datetime({ offset: true }).describe('Start of the day the finished counts cover'),
    succeeded: z.number().int().describe('Runs that succeeded since `since`'),
    failed: z.number().int().describe('Runs that failed since `since`'),
    queued: z.number().int().describe('Runs waiting for a browser now'),
    running: z.number().int().describe('Runs under way now'),
  }),
  series: z.object({
    from: z.iso.datetime().describe('Start of the first hour'),
    buckets: z.array(OverviewBucket).describe(`The last ${OVERVIEW_HOURS} hours, oldest first, the current hour last`),
  }),
});
export type Overview = z.infer<typeof Overview>;

export const overviewOperations = defineOperations({
  getOverview: {
    operationId: 'getOverview',
    method: 'get',
    path: '/overview',
    summary: 'Live sessions, capacity, runs today and the last 24 hours, for a home page',
    tags: ['meta'],
    query: OverviewQuery,
    responses: { 200: { description: 'The overview', schema: Overview } },
    errors: [422],
  },
});
