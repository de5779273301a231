// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Overview, OverviewBucket } from '../../../contract/overview.ts';
import { localMidnight } from '../../api/overview/get-overview.ts';
import { saveSettings } from '../../api/settings.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { chartData, seriesSummary } from './overview-series.ts';
import { OverviewPage } from './OverviewPage.tsx';

// uPlot draws on a canvas jsdom does not have: the chart is stood in for, with what it was given.
vi.mock('./OverviewChart.tsx', () => ({
  default: ({ summary }: { summary: string }) => <div role="img" aria-label={summary} />,
}));

const HOUR = 3_600_000;
function buckets(fill: Partial<OverviewBucket>[] = []): OverviewBucket[] {
  const last = Date.UTC(2026, 10, 25, 17);
  return Array.from({ length: 24 }, (_, i) => ({
    start: new Date(last - (23 - i) * HOUR).toISOString(),
    sessions_started: 0,
    runs_succeeded: 0,
    runs_failed: 0,
    ...fill[i],
  }));
}

function overview(over: Partial<Overview> = {}): Overview {
  return {
    generated_at: '2026-11-25T17:30:00.000Z',
    sessions: { live: 3 },
    capacity: {
      sessions: 3,
      places: 3,
      max_sessions: 10,
      warm_pool: { ready: 1, starting: 0, target: 1, size: 1, max: 4 },
      draining: null,
    },
    runs: { since: '2026-11-25T00:00:00+01:00', succeeded: 12, failed: 2, queued: 1, running: 4 },
    series: {
      from: buckets()[0]!.start,
      buckets: buckets([{ sessions_started: 2 }, { runs_succeeded: 5, runs_failed: 1 }]),
    },
    ...over,
  };
}

const calls: string[] = [];
function serve(body: Overview) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
}

const renderPage = () =>
  renderWithQuery(
    <MemoryRouter>
      <OverviewPage />
    </MemoryRouter>,
  );

beforeEach(() => {
  calls.length = 0;
  saveSettings({ baseUrl: 'http://server.test/api', apiKey: 'k' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('OverviewPage', () => {
  it('shows live sessions, capacity with the warm pool, and runs today, each linking to its list', async () => {
    serve(overview());
    renderPage();
    const live = await screen.findByRole('region', { name: 'Live sessions' });
    expect(within(live).getByText('3')).toBeTruthy();
    expect(within(live).getByRole('link', { name: 'See live sessions' }).getAttribute('href')).toBe(
      '/sessions?state=live',
    );
    const capacity = screen.getByRole('region', { name: 'Capacity' });
    expect(capacity.textContent).toContain('of 10');
    expect(capacity.textContent).toContain('Warm pool: 1 browser ready (keeps 1, grows to 4 with demand).');
    const runs = screen.getByRole('region', { name: 'Runs today' });
    expect(within(runs).getByRole('link', { name: '12 Succeeded' }).getAttribute('href')).toBe(
      '/runs?status=succeeded',
    );
    expect(within(runs).getByRole('link', { name: '2 Failed' }).getAttribute('href')).toBe('/runs?status=failed');
    expect(within(runs).getByRole('link', { name: '1 Queued now' })).toBeTruthy();
    expect(within(runs).getByRole('link', { name: '4 Running now' })).toBeTruthy();
    // "Today" is this browser's: its own midnight goes with the request.
    expect(decodeURIComponent(calls[0]!)).toContain(`since=${localMidnight()}`);
  });

  it('summarises the 24 hours for the chart, and has them as a table behind a disclosure', async () => {
    serve(overview());
    renderPage();
    const chart = await screen.findByRole('img');
    expect(chart.getAttribute('aria-label')).toBe('Last 24 hours: 2 sessions started, 5 runs succeeded, 1 run failed.');
    await userEvent.click(screen.getByText('Show the hours as a table'));
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(25);
    // Newest hour first.
    expect(
      within(rows[24]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', '0', '0']);
  });

  it('counts places, not sessions, when context sessions share browsers', async () => {
    serve(
      overview({
        capacity: {
          sessions: 12,
          places: 2,
          max_sessions: 10,
          warm_pool: { ready: 1, starting: 0, target: 1, size: 1, max: 4 },
          draining: null,
        },
      }),
    );
    renderPage();
    const capacity = await screen.findByRole('region', { name: 'Capacity' });
    expect(capacity.textContent).toContain('2 of 10');
    expect(capacity.textContent).toContain('browsers on this server, holding 12 sessions');
    expect(capacity.textContent).not.toContain('full');
  });

  it('says the pool is off, the host full, and that nothing happened yet, in words', async () => {
    serve(
      overview({
        capacity: {
          sessions: 10,
          places: 10,
          max_sessions: 10,
          warm_pool: { ready: 0, starting: 0, target: 0, size: 0, max: 4 },
          draining: null,
        },
        series: { from: buckets()[0]!.start, buckets: buckets() },
      }),
    );
    renderPage();
    const capacity = await screen.findByRole('region', { name: 'Capacity' });
    expect(capacity.textContent).toContain('full, new runs wait in the queue');
    expect(capacity.textContent).toContain('Warm pool off');
    expect(screen.getByText(/Nothing in the last 24 hours yet/)).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('asks for a key instead of calling the server without one', () => {
    saveSettings({ baseUrl: 'http://server.test/api', apiKey: '' });
    serve(overview());
    renderPage();
    expect(screen.getByRole('link', { name: 'Save an API key in Settings' })).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('overview helpers', () => {
  it('localMidnight is the local day start with its offset, which the API accepts', () => {
    expect(localMidnight(new Date(2026, 10, 25, 17, 3))).toMatch(/^2026-11-25T00:00:00[+-]\d\d:\d\d$/);
    expect(new Date(localMidnight(new Date(2026, 10, 25, 17, 3))).getTime()).toBe(new Date(2026, 10, 25).getTime());
  });

  it('stacks a run bar as succeeded under the whole, and says singulars', () => {
    const b = buckets([{ runs_succeeded: 2, runs_failed: 3, sessions_started: 1 }]);
    const [x, sessions, succeeded, ended] = chartData(b);
    expect([x[0], sessions[0], succeeded[0], ended[0]]).toEqual([Date.parse(b[0]!.start) / 1000, 1, 2, 5]);
    expect(seriesSummary(buckets([{ sessions_started: 1, runs_succeeded: 1 }]))).toBe(
      'Last 24 hours: 1 session started, 1 run succeeded, 0 runs failed.',
    );
  });
});
