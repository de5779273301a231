// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../../contract/runs.ts';
import type { Session } from '../../../contract/sessions.ts';
import { sessionFixture } from '../../lib/session-fixture.ts';
import { runStatusQueryOptions } from '../runs/get-run-status.ts';
import { runsQueryOptions } from '../runs/get-runs.ts';
import { sessionQueryOptions, useSession } from '../sessions/get-session.ts';
import { sessionStatusQueryOptions } from '../sessions/get-session-status.ts';
import { sessionsQueryOptions } from '../sessions/get-sessions.ts';
import { saveSettings } from '../settings.ts';
import { setEventsConnected } from './connection-state.ts';

const A = '11111111-2222-4333-8444-555555555555';

const liveSession: Session = sessionFixture({ id: A });

const runSummary: RunSummary = {
  session_id: A,
  workflow_id: liveSession.workflow_id,
  workflow_name: 'checkout flow',
  status: 'running',
  message: '',
  total_actions: 3,
  created_at: '2026-11-23T10:00:00.000Z',
  completed_at: null,
  duration_ms: null,
};

/** The refetchInterval `options` asks for once the query holds `data`, as react-query computes it. */
function intervalWith<TData, TKey extends QueryKey>(options: UseQueryOptions<TData, Error, TData, TKey>, data: TData) {
  const client = new QueryClient();
  const query = client.getQueryCache().build(client, options);
  query.setData(data);
  const { refetchInterval } = options;
  return typeof refetchInterval === 'function' ? refetchInterval(query) : refetchInterval;
}

/**
 * An event-covered query: its options by connection state, data that keeps it polling today (only
 * the fields its refetchInterval reads), that interval, and data that stops it (when some does).
 */
function covered<TData, TKey extends QueryKey>(
  name: string,
  options: (eventsConnected: boolean) => UseQueryOptions<TData, Error, TData, TKey>,
  going: Partial<TData>,
  ms: number,
  done?: Partial<TData>,
) {
  return {
    name,
    ms,
    going: (eventsConnected: boolean) => intervalWith(options(eventsConnected), going as TData),
    done: done && ((eventsConnected: boolean) => intervalWith(options(eventsConnected), done as TData)),
  };
}

const queries = [
  covered('session', (c) => sessionQueryOptions(A, c), { state: 'live' }, 2000, { state: 'ended' }),
  covered('session status', (c) => sessionStatusQueryOptions(A, c), { in_progress: true }, 2000, {
    in_progress: false,
  }),
  covered('sessions list', (c) => sessionsQueryOptions({}, c), { items: [] }, 2000),
  covered('run status', (c) => runStatusQueryOptions(A, c), { completed: false }, 1000, { completed: true }),
  covered('runs list', (c) => runsQueryOptions({}, c), { items: [{ ...runSummary, status: 'running' }] }, 3000, {
    items: [{ ...runSummary, status: 'succeeded' }],
  }),
];

afterEach(() => {
  cleanup();
  setEventsConnected(false);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('polling as a fallback', () => {
  it.each(queries)(
    '$name: no polling while the stream is connected, the old interval while it is not',
    ({ going, ms }) => {
      expect(going(true)).toBe(false);
      expect(going(false)).toBe(ms);
    },
  );

  it.each(queries.filter((q) => q.done))('$name: still stops once there is nothing left to watch', ({ done }) => {
    expect(done!(false)).toBe(false);
  });

  it('useSession stops polling when the stream connects and polls again when it drops', async () => {
    vi.useFakeTimers();
    saveSettings({ baseUrl: 'http://localhost:8080/api', apiKey: 'k_0123456789abcdef' });
    const fetch = vi.fn(
      async () => new Response(JSON.stringify(liveSession), { headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

    setEventsConnected(true);
    renderHook(() => useSession(A), { wrapper });
    await advance(100);
    expect(fetch).toHaveBeenCalledTimes(1);
    await advance(6000);
    expect(fetch).toHaveBeenCalledTimes(1);

    act(() => setEventsConnected(false));
    await advance(4100);
    expect(fetch).toHaveBeenCalledTimes(3);

    act(() => setEventsConnected(true));
    await advance(6000);
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
