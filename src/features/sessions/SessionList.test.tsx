// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../contract/sessions.ts';
import { SessionList } from './SessionList.tsx';
import { readStateFilter } from './session-filter.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { sessionFixture } from '../../lib/session-fixture.ts';

const live: Session = sessionFixture();
const ended: Session = {
  ...live,
  id: '99999999-2222-4333-8444-555555555555',
  workflow_name: null,
  state: 'ended',
  end_reason: 'timed_out',
  ended_at: '2026-11-23T10:20:00.000Z',
};
// Older, on another day, ended after 5 minutes: sorts apart from the others by every column.
const older: Session = {
  ...live,
  id: '55555555-2222-4333-8444-555555555555',
  workflow_name: 'audit run',
  state: 'ended',
  end_reason: 'stopped',
  created_at: '2026-11-20T08:00:00.000Z',
  ended_at: '2026-11-20T08:05:00.000Z',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A server that filters by ?state= and searches workflow names by ?q= as the real one does, answers
 * in the order it holds the rows whatever ?sort= says (the test reads the request), pages by cursor (`pageSize` rows a page) and
 * ends sessions on DELETE (`refuse`: ids it answers 409 for); returns the requests made.
 */
function fakeServer(opts: { sessions?: Session[]; pageSize?: number; refuse?: string[] } = {}) {
  const all = opts.sessions ?? [live, ended];
  const calls: { url: URL; method: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url);
      const method = init?.method ?? 'GET';
      calls.push({ url: u, method });
      if (method === 'DELETE') {
        const id = u.pathname.split('/').pop()!;
        if (opts.refuse?.includes(id)) return json({ error: 'conflict', message: 'This session is busy.' }, 409);
        const s = all.find((x) => x.id === id)!;
        Object.assign(s, { state: 'ended', end_reason: 'stopped', ended_at: '2026-11-23T11:00:00.000Z' });
        return json(s);
      }
      const state = u.searchParams.get('state');
      const q = u.searchParams.get('q')?.toLowerCase();
      const items = all.filter((s) => (!state || s.state === state) && (!q || s.workflow_name?.includes(q)));
      const from = Number(u.searchParams.get('cursor') ?? 0);
      const size = opts.pageSize ?? 50;
      const next = from + size < items.length ? String(from + size) : null;
      return json({ items: items.slice(from, from + size), next_cursor: next });
    }),
  );
  return calls;
}

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/sessions', Component: SessionList },
      { path: '/sessions/:id', Component: () => <p>session page</p> },
    ],
    { initialEntries: [url] },
  );
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}

const rowIds = () => [...document.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-session-id'));

// jsdom has <dialog> but not its modal methods: open and close it by the attribute, as a browser would.
beforeAll(() => {
  const proto = HTMLDialogElement.prototype;
  proto.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SessionList', () => {
  it('shows each session with its workflow, state and end reason, start, and end or time left', async () => {
    fakeServer({ sessions: [{ ...live }, { ...ended }] });
    renderAt('/sessions');
    const liveRow = (await screen.findByText('checkout flow')).closest('tr')!;
    expect(within(liveRow).getByText('live')).toBeTruthy();
    expect(within(liveRow).getByTestId('time-left')).toBeTruthy();
    expect(within(liveRow).getByText((_, el) => el?.getAttribute('datetime') === live.created_at)).toBeTruthy();
    const endedRow = document.querySelector(`tr[data-session-id="${ended.id}"]`)!;
    expect(endedRow.querySelector('td[data-label="State"]')!.textContent).toBe('ended');
    expect(endedRow.querySelector('td[data-label="End reason"]')!.textContent).toBe('timed out');
    expect(endedRow.textContent).toContain('deleted');
    expect(endedRow.querySelector(`time[datetime="${ended.ended_at}"]`)).not.toBeNull();
    expect(endedRow.querySelector('td[data-label="Duration"]')!.textContent).toBe('20 min 00 s');
    // The first cell links to the session page: the keyboard's way in.
    expect(within(liveRow).getByRole('link').getAttribute('href')).toBe(`/sessions/${live.id}`);
  });

  it('says a run\'s session ended with its run\'s outcome, not "completed", and marks a failed run as gone wrong', async () => {
    const failedRun: Session = {
      ...ended,
      id: '22222222-2222-4333-8444-555555555555',
      workflow_name: 'failing',
      end_reason: 'completed',
      run: { status: 'failed' },
    };
    const goodRun: Session = {
      ...ended,
      id: '33333333-2222-4333-8444-555555555555',
      workflow_name: 'passing',
      end_reason: 'completed',
      run: { status: 'succeeded' },
    };
    const noRun: Session = {
      ...ended,
      id: '44444444-2222-4333-8444-555555555555',
      workflow_name: 'plain',
      end_reason: 'completed',
      run: null,
    };
    fakeServer({ sessions: [failedRun, goodRun, noRun] });
    renderAt('/sessions');
    await screen.findByText('failing');
    const cell = (id: string, label: string) =>
      document.querySelector(`tr[data-session-id="${id}"] td[data-label="${label}"]`)!;
    expect(cell(failedRun.id, 'End reason').textContent).toBe('run failed');
    expect(cell(failedRun.id, 'State').querySelector('.badge')!.className).toContain('failed');
    expect(cell(goodRun.id, 'End reason').textContent).toBe('run succeeded');
    expect(cell(goodRun.id, 'State').querySelector('.badge')!.className).not.toContain('failed');
    expect(cell(noRun.id, 'End reason').textContent).toBe('completed');
    // Only the session with no run says "completed".
    expect(screen.queryAllByText('completed', { selector: 'td' })).toHaveLength(1);
  });

  it('filters by state on the server and keeps the filter in the URL', async () => {
    const calls = fakeServer({ sessions: [{ ...live }, { ...ended }] });
    const router = renderAt('/sessions');
    await screen.findByText('checkout flow');
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Ended');
    await waitFor(() => expect(screen.queryByText('checkout flow')).toBeNull());
    expect(calls.at(-1)!.url.searchParams.get('state')).toBe('ended');
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

  it('asks the server for the order of a clicked header, both ways, keeps it in the URL, and shows rows as answered', async () => {
    const calls = fakeServer({ sessions: [{ ...live }, { ...ended }, { ...older }] });
    const router = renderAt('/sessions');
    await screen.findByText('checkout flow');
    const asked = () => Object.fromEntries(calls.at(-1)!.url.searchParams);
    // Newest first until another order is chosen.
    expect(asked()).toMatchObject({ sort: 'created_at', order: 'desc' });
    expect(screen.getByRole('columnheader', { name: /Started/ }).getAttribute('aria-sort')).toBe('descending');

    const workflow = screen.getByRole('button', { name: /Workflow/ });
    await userEvent.click(workflow);
    await waitFor(() => expect(asked()).toMatchObject({ sort: 'workflow_name', order: 'asc' }));
    expect(screen.getByRole('columnheader', { name: /Workflow/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: /Started/ }).getAttribute('aria-sort')).toBe('none');
    expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('workflow:asc');
    // The server's order is kept: the page does not sort the rows again.
    expect(rowIds()).toEqual([live.id, ended.id, older.id]);
    await userEvent.click(workflow);
    await waitFor(() => expect(asked()).toMatchObject({ sort: 'workflow_name', order: 'desc' }));
    expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('workflow:desc');

    await userEvent.click(screen.getByRole('button', { name: /End reason/ }));
    await waitFor(() => expect(asked()).toMatchObject({ sort: 'end_reason', order: 'asc' }));
  });

  it("asks the server for the URL's sort, search and whole days, and says when nothing matches", async () => {
    const calls = fakeServer({ sessions: [{ ...live }, { ...ended }, { ...older }] });
    renderAt('/sessions?sort=duration:desc&from=2026-11-20&to=2026-11-21');
    await screen.findByText('checkout flow');
    // From the start of the 20th to the start of the 22nd in the viewer's time zone: both days whole.
    expect(Object.fromEntries(calls.at(-1)!.url.searchParams)).toMatchObject({
      sort: 'duration',
      order: 'desc',
      from: new Date(2026, 10, 20).toISOString(),
      to: new Date(2026, 10, 22).toISOString(),
    });
    expect((screen.getByLabelText('Started from') as HTMLInputElement).value).toBe('2026-11-20');
    cleanup();

    const router = renderAt('/sessions?q=AUDIT&sort=bogus:sideways');
    await screen.findByText('audit run');
    expect(rowIds()).toEqual([older.id]);
    expect(Object.fromEntries(calls.at(-1)!.url.searchParams)).toMatchObject({ q: 'AUDIT', sort: 'created_at' });
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('AUDIT');
    expect(screen.getByText(/1 matching sessions shown/)).toBeTruthy();
    expect(screen.queryByText(/loaded rows/)).toBeNull();
    await userEvent.clear(screen.getByLabelText('Search'));
    await userEvent.type(screen.getByLabelText('Search'), 'nothing like it');
    expect(await screen.findByText('No session matches the search or dates.')).toBeTruthy();
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('nothing like it');
    // Typing is asked once it pauses, not at each key.
    expect(calls.filter((c) => c.url.searchParams.get('q')?.startsWith('nothing')).length).toBe(1);
    await userEvent.click(screen.getByRole('button', { name: 'Clear search and dates' }));
    await waitFor(() => expect(rowIds()).toHaveLength(3));
  });

  it('loads the next page with the cursor the server gave', async () => {
    const calls = fakeServer({ sessions: [{ ...live }, { ...ended }, { ...older }], pageSize: 2 });
    renderAt('/sessions');
    await screen.findByText('checkout flow');
    expect(rowIds()).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('audit run');
    expect(rowIds()).toHaveLength(3);
    expect(calls.at(-1)!.url.searchParams.get('cursor')).toBe('2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('opens a row by a click anywhere in it', async () => {
    fakeServer({ sessions: [{ ...live }] });
    const router = renderAt('/sessions');
    const cell = (await screen.findByText('checkout flow')).closest('td')!;
    await userEvent.click(cell);
    expect(router.state.location.pathname).toBe(`/sessions/${live.id}`);
  });

  it('ends the selected live sessions after asking, and says which could not be ended', async () => {
    const second: Session = { ...live, id: '22222222-2222-4333-8444-555555555555', workflow_name: 'second' };
    const calls = fakeServer({ sessions: [{ ...live }, second, { ...ended }], refuse: [second.id] });
    renderAt('/sessions');
    await screen.findByText('checkout flow');
    // An ended session cannot be selected; selecting does not open the row.
    expect(within(document.querySelector(`tr[data-session-id="${ended.id}"]`)!).queryByRole('checkbox')).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all listed sessions that have not ended' }));
    expect(screen.getByText('2 sessions selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'End 2 sessions' }));
    const dialog = screen.getByRole('dialog', { name: 'End 2 sessions?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'End 2 sessions' }));
    expect(await screen.findByText(/Ended 1 session\. 1 session could not be ended:/)).toBeTruthy();
    expect(screen.getByText(/This session is busy/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url.pathname.split('/').pop())).toEqual([
      live.id,
      second.id,
    ]);
    await waitFor(() =>
      expect(document.querySelector(`tr[data-session-id="${live.id}"] td[data-label="State"]`)!.textContent).toBe(
        'ended',
      ),
    );
    expect(screen.queryByText(/sessions? selected/)).toBeNull();
  });

  it('selects only the sessions the search leaves on screen', async () => {
    const second: Session = { ...live, id: '22222222-2222-4333-8444-555555555555', workflow_name: 'second' };
    fakeServer({ sessions: [{ ...live }, second] });
    renderAt('/sessions?q=second');
    await screen.findByText('second');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all listed sessions that have not ended' }));
    expect(screen.getByText('1 session selected')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'End 1 session' })).toBeTruthy();
  });
});
