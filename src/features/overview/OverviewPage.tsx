import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { Overview } from '../../../contract/overview.ts';
import { localMidnight, useOverview } from '../../api/overview/get-overview.ts';
import { hasApiKey } from '../../api/settings.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { hourLabel, seriesSummary, seriesTotals } from './overview-series.ts';
import './overview.css';

// uPlot comes with the chart only: the cards show before it loads.
const OverviewChart = lazy(() => import('./OverviewChart.tsx'));

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function CapacityCard({ capacity }: { capacity: Overview['capacity'] }) {
  const { sessions, places, max_sessions: max, warm_pool: pool } = capacity;
  // Places, not sessions, fill the server: context sessions share a browser, which takes one place.
  const used = Math.min(100, Math.round((places / Math.max(1, max)) * 100));
  const full = places >= max;
  return (
    <section className="card overview-card" aria-labelledby="overview-capacity">
      <h2 id="overview-capacity">Capacity</h2>
      <p className="overview-number">
        {places} <span className="overview-of">of {max}</span>
      </p>
      <p className="hint">
        {places === sessions
          ? 'sessions on this server'
          : `browsers on this server, holding ${plural(sessions, 'session')} (context sessions share one)`}
        {capacity.draining
          ? `: draining before a restart, takes nothing new; stops by ${new Date(capacity.draining.deadline).toLocaleTimeString()}`
          : full
            ? ': full, new runs wait in the queue'
            : ''}
      </p>
      <div className={`overview-bar${full ? ' full' : ''}`} aria-hidden="true">
        <span style={{ width: `${used}%` }} />
      </div>
      <p className="overview-pool">
        {pool.size === 0
          ? 'Warm pool off (WARM_POOL_SIZE=0): each session starts its own browser.'
          : `Warm pool: ${plural(pool.ready, 'browser')} ready${pool.starting ? `, ${pool.starting} starting` : ''} (keeps ${pool.size}, grows to ${pool.max} with demand).`}
      </p>
    </section>
  );
}

function RunsCard({ runs }: { runs: Overview['runs'] }) {
  const rows = [
    { status: 'succeeded', label: 'Succeeded', n: runs.succeeded },
    { status: 'failed', label: 'Failed', n: runs.failed },
    { status: 'running', label: 'Running now', n: runs.running },
    { status: 'queued', label: 'Queued now', n: runs.queued },
  ] as const;
  return (
    <section className="card overview-card" aria-labelledby="overview-runs">
      <h2 id="overview-runs">Runs today</h2>
      <ul className="overview-runs">
        {rows.map((r) => (
          <li key={r.status} className={`overview-run ${r.status}`}>
            <Link to={`/runs?status=${r.status}`}>
              <span className="overview-count">{r.n}</span> <span>{r.label}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="hint">Finished since midnight; running and queued as of now.</p>
    </section>
  );
}

function HourTable({ buckets }: { buckets: Overview['series']['buckets'] }) {
  return (
    <details className="overview-table">
      <summary>Show the hours as a table</summary>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Sessions started and runs ended per hour, the last 24 hours</caption>
          <thead>
            <tr>
              <th scope="col">Hour</th>
              <th scope="col">Sessions started</th>
              <th scope="col">Runs succeeded</th>
              <th scope="col">Runs failed</th>
            </tr>
          </thead>
          <tbody>
            {[...buckets].reverse().map((b) => (
              <tr key={b.start}>
                <th scope="row">{hourLabel(b.start)}</th>
                <td>{b.sessions_started}</td>
                <td>{b.runs_succeeded}</td>
                <td>{b.runs_failed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function ActivityCard({ series }: { series: Overview['series'] }) {
  const totals = seriesTotals(series.buckets);
  const summary = seriesSummary(series.buckets);
  const empty = totals.sessions + totals.succeeded + totals.failed === 0;
  return (
    <section className="card" aria-labelledby="overview-activity">
      <h2 id="overview-activity">Last 24 hours</h2>
      <ul className="overview-legend">
        <li>
          <span className="swatch sessions" aria-hidden="true" /> {plural(totals.sessions, 'session')} started
        </li>
        <li>
          <span className="swatch succeeded" aria-hidden="true" /> {plural(totals.succeeded, 'run')} succeeded
        </li>
        <li>
          <span className="swatch failed" aria-hidden="true" /> {plural(totals.failed, 'run')} failed
        </li>
      </ul>
      {empty ? (
        <p className="status overview-empty">
          Nothing in the last 24 hours yet. <Link to="/sessions">Launch a session</Link> or{' '}
          <Link to="/run">run a workflow</Link> and it shows here.
        </p>
      ) : (
        <Suspense fallback={<div className="overview-chart-placeholder">Loading the chart…</div>}>
          <OverviewChart buckets={series.buckets} summary={summary} />
        </Suspense>
      )}
      <HourTable buckets={series.buckets} />
    </section>
  );
}

/** The home: what the server is doing now and did today, at a glance. Kept fresh by the event stream. */
export function OverviewPage() {
  // "Today" as this browser means it: the same text all day, so the query key holds until midnight, then moves on.
  const since = localMidnight();
  const connected = hasApiKey();
  const overview = useOverview(since, connected);
  const data = overview.data;
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <p className="lead">What this server is doing now, and what it did today.</p>
      {!connected && (
        <p className="notice">
          <Link to="/settings">Save an API key in Settings</Link> to see this server&apos;s sessions and runs.
        </p>
      )}
      {overview.isError && <ErrorNotice error={overview.error} title="Could not read the overview." />}
      {connected && overview.isPending && (
        <p className="status" role="status">
          Loading…
        </p>
      )}
      {data && (
        <>
          <div className="overview-cards">
            <section className="card overview-card" aria-labelledby="overview-live">
              <h2 id="overview-live">Live sessions</h2>
              <p className="overview-number">{data.sessions.live}</p>
              <p className="hint">starting or live now</p>
              <p>
                <Link to="/sessions?state=live">See live sessions</Link>
              </p>
            </section>
            <CapacityCard capacity={data.capacity} />
            <RunsCard runs={data.runs} />
          </div>
          <ActivityCard series={data.series} />
        </>
      )}
    </section>
  );
}
