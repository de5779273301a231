// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../../contract/runs.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { readStatusFilter, RunsPage } from './RunsPage.tsx';

const run = (n: number, over: Partial<RunSummary>): RunSummary => ({
  session_id: `${n}1111111-2222-4333-8444-555555555555`,
  workflow_id: '6f1c2a8e-54a4-4a77-9d55-1f0a2b3c4d5e',
  workflow_name: `workflow ${n}`,
  status: 'succeeded',
  message: 'All 2 steps succeeded',
  total_actions: 2,
  created_at: `2026-11-2${n}T10:00:00.000Z`,
  completed_at: null,
  duration_ms: 1000 * n,
  ...over,
});
const slow = run(1, { workflow_name: 'zeta export', duration_ms: 90_000 });
const failed = run(2, {
  workflow_name: 'alpha login',
  status: 'failed',
  message: 'Step 2 (click #go): no element matched',
  duration_ms: 3_000,
});
const going = run(3, { workflow_name: null, status: 'running', duration_ms: null });

/** A server that lists runs newest first, filtered by ?status= and searched in messages by ?q= as the real one does (?sort= is read from the URLs it returns). */
function fakeServer() {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(url);
      urls.push(u);
      const status = u.searchParams.get('status');
      const q = u.searchParams.get('q')?.toLowerCase();
      const items = [going, failed, slow].filter(
        (r) => (!status || r.status === status) && (!q || r.message.toLowerCase().includes(q)),
      );
      return new Response(JSON.stringify({ items, next_cursor: null }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return urls;
}

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/runs', Component: RunsPage },
      { path: '/runs/:id', Component: () => <p>run page</p> },
    ],
    { initialEntries: [url] },
  );
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}
const rowIds = () => [...document.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-session-id'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RunsPage', () => {
  it('lists runs as the server answers, each a link to its page, and asks it for the duration order both ways', async () => {
    const urls = fakeServer();
    const router = renderAt('/runs');
    await screen.findByText('alpha login');
    expect(rowIds()).toEqual([going.session_id, failed.session_id, slow.session_id]);
    expect(screen.getByRole('link', { name: 'Deleted workflow' }).getAttribute('href')).toBe(
      `/runs/${going.session_id}`,
    );
    await userEvent.click(screen.getByRole('button', { name: /Duration/ }));
    const dir = new URLSearchParams(router.state.location.search).get('sort');
    expect(dir === 'duration:asc' || dir === 'duration:desc').toBe(true);
    await waitFor(() =>
      expect(Object.fromEntries(urls.at(-1)!.searchParams)).toMatchObject({
        sort: 'duration',
        order: dir!.split(':')[1],
      }),
    );
    // Rows stay in the server's order.
    expect(rowIds()).toEqual([going.session_id, failed.session_id, slow.session_id]);
  });

  it('keeps the outcome filter, search and sort in the URL, reads them back and asks the server for them', async () => {
    const urls = fakeServer();
    const router = renderAt('/runs?sort=workflow:asc&q=ELEMENT');
    await screen.findByText('alpha login');
    expect(rowIds()).toEqual([failed.session_id]); // only its message says "element"
    expect(Object.fromEntries(urls.at(-1)!.searchParams)).toMatchObject({
      q: 'ELEMENT',
      sort: 'workflow_name',
      order: 'asc',
    });
    await userEvent.clear(screen.getByLabelText('Search'));
    await waitFor(() => expect(rowIds()).toHaveLength(3));
    expect(urls.at(-1)!.searchParams.has('q')).toBe(false);
    await userEvent.selectOptions(screen.getByLabelText('Outcome'), 'Failed');
    await waitFor(() => expect(rowIds()).toEqual([failed.session_id]));
    expect(urls.at(-1)!.searchParams.get('status')).toBe('failed');
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('status')).toBe('failed');
    expect(params.get('sort')).toBe('workflow:asc');
    expect(readStatusFilter(new URLSearchParams('status=paused'))).toBeUndefined();
  });

  it('opens a run by a click anywhere in its row', async () => {
    fakeServer();
    const router = renderAt('/runs');
    await userEvent.click(await screen.findByText('zeta export'));
    expect(router.state.location.pathname).toBe(`/runs/${slow.session_id}`);
    cleanup();
    const again = renderAt('/runs');
    const cell = (await screen.findByText(failed.message)).closest('td')!;
    await userEvent.click(cell);
    expect(again.state.location.pathname).toBe(`/runs/${failed.session_id}`);
  });
});
