import type { OverviewBucket } from '../../../contract/overview.ts';

/** Totals of the chart's hours, for its summary and its legend. */
export function seriesTotals(buckets: OverviewBucket[]) {
  return buckets.reduce(
    (t, b) => ({
      sessions: t.sessions + b.sessions_started,
      succeeded: t.succeeded + b.runs_succeeded,
      failed: t.failed + b.runs_failed,
    }),
    { sessions: 0, succeeded: 0, failed: 0 },
  );
}

/** The hour a bucket covers, in this browser's time and clock: "14:00–15:00" or "2 PM–3 PM". */
export function hourLabel(start: string, locale?: string): string {
  const from = new Date(start);
  const to = new Date(from.getTime() + 3_600_000);
  const fmt = (d: Date) =>
    d.toLocaleTimeString(locale, { hour: 'numeric', minute: d.getMinutes() ? '2-digit' : undefined });
  return `${fmt(from)}–${fmt(to)}`;
}

/** One sentence of what the chart shows, for screen readers and the chart's label. */
export function seriesSummary(buckets: OverviewBucket[]): string {
  const t = seriesTotals(buckets);
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `Last 24 hours: ${plural(t.sessions, 'session', 'sessions')} started, ${plural(t.succeeded, 'run', 'runs')} succeeded, ${plural(t.failed, 'run', 'runs')} failed.`;
}

/**
 * uPlot's aligned data: x in Unix seconds (the hour's start), then sessions started, runs
 * succeeded, and runs ended in all (the failed bar is drawn as the whole stack, succeeded over it).
 */
export function chartData(buckets: OverviewBucket[]): [number[], number[], number[], number[]] {
  return [
    buckets.map((b) => Date.parse(b.start) / 1000),
    buckets.map((b) => b.sessions_started),
    buckets.map((b) => b.runs_succeeded),
    buckets.map((b) => b.runs_succeeded + b.runs_failed),
  ];
}
