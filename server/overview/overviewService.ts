import { OVERVIEW_HOURS, type Overview, type OverviewBucket } from '../../contract/overview.ts';
import type { OverviewRepo } from '../store/overview.ts';

const HOUR_MS = 3_600_000;

/** What the overview needs; built in server/services.ts. */
export interface OverviewDeps {
  store: Pick<OverviewRepo, 'liveSessions' | 'runCounts' | 'sessionsStartedByHour' | 'runsEndedByHour'>;
  /** This node's sessions starting or live, its warm pool now, and its drain when it drains. */
  capacity(): {
    sessions: number;
    /** MAX_SESSIONS' places taken (SessionManager.placesUsed). */
    places: number;
    pool: { ready: number; starting: number; target: number };
    draining: { since: string; deadline: string } | null;
  };
  config: { MAX_SESSIONS: number; WARM_POOL_SIZE: number; WARM_POOL_MAX: number };
  now?: () => Date;
}

/** Midnight UTC of `now`: the day the run counts cover when the caller names none. */
export const utcMidnight = (now: Date): string =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();

/**
 * The dashboard's home at a glance: live sessions, this node's capacity, runs today and the last
 * 24 hours, one bucket per hour (UTC hours; the dashboard shows them in its own time).
 */
export class OverviewService {
  constructor(private readonly deps: OverviewDeps) {}

  async get(opts: { since?: string } = {}): Promise<Overview> {
    const now = this.deps.now?.() ?? new Date();
    // `since` may carry an offset; the store's timestamps are UTC text, so it is compared as UTC.
    const since = opts.since ? new Date(opts.since).toISOString() : utcMidnight(now);
    const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    const from = new Date(currentHour - (OVERVIEW_HOURS - 1) * HOUR_MS).toISOString();
    const [live, runCounts, started, ended] = await Promise.all([
      this.deps.store.liveSessions(),
      this.deps.store.runCounts(since),
      this.deps.store.sessionsStartedByHour(from),
      this.deps.store.runsEndedByHour(from),
    ]);
    const runs = { succeeded: 0, failed: 0, queued: 0, running: 0 };
    for (const { status, n } of runCounts) if (status in runs) runs[status as keyof typeof runs] = Number(n);

    const buckets = new Map<string, OverviewBucket>();
    for (let i = 0; i < OVERVIEW_HOURS; i++) {
      const start = new Date(currentHour - (OVERVIEW_HOURS - 1 - i) * HOUR_MS).toISOString();
      buckets.set(start.slice(0, 13), { start, sessions_started: 0, runs_succeeded: 0, runs_failed: 0 });
    }
    for (const { hour, n } of started) {
      const b = buckets.get(hour);
      if (b) b.sessions_started += Number(n);
    }
    for (const { hour, status, n } of ended) {
      const b = buckets.get(hour);
      if (b && status === 'succeeded') b.runs_succeeded += Number(n);
      if (b && status === 'failed') b.runs_failed += Number(n);
    }

    const { sessions, places, pool, draining } = this.deps.capacity();
    const { MAX_SESSIONS, WARM_POOL_SIZE, WARM_POOL_MAX } = this.deps.config;
    return {
      generated_at: now.toISOString(),
      sessions: { live: Number(live) },
      capacity: {
        sessions,
        places,
        max_sessions: MAX_SESSIONS,
        warm_pool: {
          ready: pool.ready,
          starting: pool.starting,
          target: pool.target,
          size: WARM_POOL_SIZE,
          max: WARM_POOL_MAX,
        },
        draining,
      },
      runs: { since: opts.since ?? since, ...runs },
      series: { from, buckets: [...buckets.values()] },
    };
  }
}
