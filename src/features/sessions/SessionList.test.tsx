// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../contract/sessions.ts';
import { SessionList } from './SessionList.tsx';
import { readStateFilter } from './session-filter.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';

const live: Session = {
  id: '11111111-2222-4333-8444-555555555555',
  workflow_id: '6f1c2a8e-54a4-4a77-9d55-1f0a2b3c4d5e',
  workflow_name: 'checkout flow',
  state: 'live',
  end_reason: null,
  proxies: false,
  timeout: 1200,
  webhook_url: null,
  metadata: null,
  created_at: '2026-11-23T10:00:00.000Z',
  expires_at: '2999-01-01T00:00:00.000Z',
  ended_at: null,
};
const ended: Session = { ...live, id: '99999999-2222-4333-8444-555555555555', workflow_name: null, state: 'ended', end_reason: 'timed_out', ended_at: '2026-11-23T10:20:00.000Z' };

/** A server that filters by ?state= as the real one does; returns the URLs asked for. */
function fakeServer() {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(url);
      urls.push(u);
      const state = u.searchParams.get('state');
      const items = [live, ended].filter((s) => !state || s.state === state);
      return new Response(JSON.stringify({ items, next_cursor: null }), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return urls;
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/sessions', Component: SessionList }], { initialEntries: [url] });
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SessionList', () => {
  it('shows each session with its workflow, state and end reason, start, and end or time left', async () => {
    fakeServer();
    renderAt('/sessions');
    const liveRow = (await screen.findByText('checkout flow')).closest('tr')!;
    expect(within(liveRow).getByText('live')).toBeTruthy();
    expect(within(liveRow).getByTestId('time-left')).toBeTruthy();
    expect(within(liveRow).getByText((_, el) => el?.getAttribute('datetime') === live.created_at)).toBeTruthy();
    const endedRow = document.querySelector(`tr[data-session-id="${ended.id}"]`)!;
    expect(endedRow.textContent).toContain('ended · timed out');
    expect(endedRow.textContent).toContain('deleted');
    expect(endedRow.querySelector(`time[datetime="${ended.ended_at}"]`)).not.toBeNull();
  });

  it('filters by state on the server and keeps the filter in the URL', async () => {
    const urls = fakeServer();
    const router = renderAt('/sessions');
    await screen.findByText('checkout flow');
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Ended');
    await waitFor(() => expect(screen.queryByText('checkout flow')).toBeNull());
    expect(urls.at(-1)!.searchParams.get('state')).toBe('ended');
    expect(router.state.location.search).toBe('?state=ended');
    expect(document.querySelector(`tr[data-session-id="${ended.id}"]`)).not.toBeNull();
  });

  it('says when a filter leaves nothing, and reads only real states from the URL', async () => {
    fakeServer();
    renderAt('/sessions?state=starting');
    expect(await screen.findByText(/No starting sessions/)).toBeTruthy();
    expect((screen.getByLabelText('Show') as HTMLSelectElement).value).toBe('starting');
    expect(readStateFilter(new URLSearchParams('state=sleeping'))).toBeUndefined();
    expect(readStateFilter(new URLSearchParams('state=live'))).toBe('live');
  });
});
