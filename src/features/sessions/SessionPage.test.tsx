// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunStatusResponse } from '../../../contract/runs.ts';
import type { Session } from '../../../contract/sessions.ts';
import { sessionKeys } from '../../api/sessions/keys.ts';
import { createQueryClient } from '../../app/query-client.ts';
import { sessionFixture } from '../../lib/session-fixture.ts';
import { SessionPage } from './SessionPage.tsx';

const ID = '11111111-2222-4333-8444-555555555555';
const WORKFLOW = '66666666-2222-4333-8444-555555555555';
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const session = (over: Partial<Session>): Session =>
  sessionFixture({
    id: ID,
    workflow_id: WORKFLOW,
    created_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 1_140_000).toISOString(),
    ...over,
  });
const ended = session({ state: 'ended', end_reason: 'completed', ended_at: new Date().toISOString() });
const failedRun: RunStatusResponse = {
  succeeded: false,
  completed: true,
  status: 'failed',
  message: 'Step 1 (click #missing): no element matched within 5 s. Check the selector in the workflow editor.',
  results: [
    {
      action: 'click',
      params: {},
      result: { ok: false, error: 'Timed out after waiting 5000ms' },
      timestamp: '2026-11-28T07:00:00.000Z',
      duration: 5000,
    },
  ],
  total_actions: 1,
  session_id: ID,
  workflow_id: WORKFLOW,
  completed_at: '2026-11-28T07:00:05.000Z',
  outputs: {},
  screenshot: null,
  pause: null,
  queue_position: null,
};

/** The session's event stream: these events, then the stream stays open (as a live one does). */
const stream = (events: Record<string, unknown>[]) =>
  new Response(
    new ReadableStream({
      start(c) {
        for (const e of events) c.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(e)}\n\n`));
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
const sessionEnded = {
  event: 'SessionEnded',
  reason: 'completed',
  index: 5,
  session_id: ID,
  created_at: new Date().toISOString(),
};

/**
 * The server as the session page asks it. `sessionAnswers` answer GET /sessions/{id} in turn (a
 * held promise keeps the page waiting for it); the last one answers every later call.
 */
function serve(sessionAnswers: Promise<Session>[], events: Record<string, unknown>[] = []) {
  const sessionReads: number[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(url);
      if (u.pathname === `/api/sessions/${ID}`) {
        sessionReads.push(Date.now());
        return json(await sessionAnswers[Math.min(sessionReads.length, sessionAnswers.length) - 1]!);
      }
      if (u.pathname === '/api/run_workflow_status') return json(failedRun);
      if (u.pathname === `/api/session/${ID}/stream`) return stream(events);
      return json({ error: 'not_found', message: 'no' }, 404);
    }),
  );
  return sessionReads;
}

/** Every "End session" the page itself showed (not the confirmation's, in its closed dialog), from the first paint. */
function watchEndSession(): () => number {
  let seen = 0;
  const look = () => {
    for (const b of document.querySelectorAll('button'))
      if (b.textContent === 'End session' && !b.closest('dialog')) seen++;
  };
  const observer = new MutationObserver(look);
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return () => {
    look();
    observer.disconnect();
    return seen;
  };
}

/** The page as the app shows it, with the app's query client, holding `cached` as another page left it. */
function show(cached?: Session) {
  const client = createQueryClient();
  if (cached) client.setQueryData(sessionKeys.one(ID), cached);
  const router = createMemoryRouter([{ path: '/sessions/:id', Component: SessionPage }], {
    initialEntries: [`/sessions/${ID}`],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  localStorage.setItem('browserdesk.settings', JSON.stringify({ baseUrl: '/api', apiKey: 'k_test' }));
  // jsdom has no scrolling; the page scrolls to its top on open.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('SessionPage', () => {
  it('never paints a cached "live" for a session that has ended: loading until read, then ended', async () => {
    let answer!: (s: Session) => void;
    serve([new Promise<Session>((r) => (answer = r))]);
    const endSessionShown = watchEndSession();
    // The run page read it while it was live, moments ago (fresh for the cache's 5 s).
    show(session({}));

    expect(await screen.findByText('Loading the session…')).toBeTruthy();
    // No state badge ("live") until the state is read.
    expect(document.querySelector('.badge')).toBeNull();
    expect(screen.queryByTestId('time-left')).toBeNull();

    answer(ended);
    expect(await screen.findByText(/This session has ended \(its run failed\)/)).toBeTruthy();
    expect(screen.getByTestId('step-failure').textContent).toContain('no element matched within 5 s');
    expect(screen.queryByText(/Timed out after waiting/)).toBeNull();
    expect(endSessionShown()).toBe(0);
  });

  it("believes the session's stream when it says the session ended, before the session is read again", async () => {
    const held = new Promise<Session>(() => undefined);
    const reads = serve([Promise.resolve(session({})), held], [sessionEnded]);
    show();

    expect(await screen.findByText(/This session has ended/)).toBeTruthy();
    expect(screen.queryAllByRole('button', { name: 'End session' }).filter((b) => !b.closest('dialog'))).toEqual([]);
    // The stream's end made the page read the session again (that answer is still on its way).
    await waitFor(() => expect(reads.length).toBeGreaterThanOrEqual(2));
  });

  it('shows End session and the time left once it has read the session live', async () => {
    serve([Promise.resolve(session({}))]);
    show(session({}));
    const button = await screen.findAllByRole('button', { name: 'End session' });
    expect(button.filter((b) => !b.closest('dialog'))).toHaveLength(1);
    expect(screen.getByTestId('time-left').textContent).toMatch(/min/);
  });
});
