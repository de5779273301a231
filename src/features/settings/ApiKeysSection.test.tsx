// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiKeyInfo } from '../../../contract/apiKeys.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { ApiKeysSection } from './ApiKeysSection.tsx';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ID = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const NEW_KEY = `bd_${'N'.repeat(43)}`;

/** A fake server holding keys: the operator's (current) and one made here; create and revoke change it. Returns the calls made. */
function fakeServer(opts: { onlyOne?: boolean } = {}) {
  const keys: ApiKeyInfo[] = [
    {
      id: ID(1),
      name: 'BROWSERDESK_API_KEY',
      prefix: null,
      created_at: '2026-11-20T10:00:00.000Z',
      revoked_at: null,
      current: true,
    },
    ...(opts.onlyOne
      ? []
      : [
          {
            id: ID(2),
            name: 'ci-runner',
            prefix: 'bd_AbCdEfG',
            created_at: '2026-11-21T10:00:00.000Z',
            revoked_at: null,
            current: false,
          },
        ]),
  ];
  const calls: { url: string; method: string; body?: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ url, method, body: init.body as string | undefined });
      const path = new URL(url).pathname;
      if (path === '/api/keys' && method === 'GET') return answer(200, { items: keys });
      if (path === '/api/keys' && method === 'POST') {
        const { name } = JSON.parse(init.body as string) as { name: string };
        if (name === 'taken-by-server')
          return answer(422, {
            error: 'invalid_request',
            message: 'bad',
            issues: [{ path: 'name', message: 'The server says no' }],
          });
        if (name === 'ci-bot') {
          const taken = 'An active key is already named “ci-bot”: choose another name, or revoke that key first';
          return answer(409, { error: 'conflict', message: taken, issues: [{ path: 'name', message: taken }] });
        }
        const made = {
          id: ID(3),
          name,
          prefix: NEW_KEY.slice(0, 10),
          created_at: '2026-11-25T10:00:00.000Z',
          revoked_at: null,
          current: false,
        };
        keys.push(made);
        return answer(201, { ...made, key: NEW_KEY });
      }
      const m = /^\/api\/keys\/(.+)$/.exec(path);
      if (m && method === 'DELETE') {
        const k = keys.find((x) => x.id === m[1])!;
        k.revoked_at = '2026-11-25T11:00:00.000Z';
        return answer(200, k);
      }
      return answer(404, { error: 'not_found', message: 'nope' });
    }),
  );
  return calls;
}

const render = (onOwnKeyRevoked = vi.fn(), connected = true) => {
  renderWithQuery(<ApiKeysSection connected={connected} onOwnKeyRevoked={onOwnKeyRevoked} />);
  return onOwnKeyRevoked;
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ApiKeysSection', () => {
  it("lists keys by name and first characters, marks the dashboard's own, and never shows a whole key", async () => {
    fakeServer();
    render();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('BROWSERDESK_API_KEY');
    expect(rows[1]!.textContent).toContain('this dashboard');
    expect(rows[1]!.textContent).toContain('set by the operator');
    expect(rows[2]!.textContent).toContain('bd_AbCdEfG…');
    expect(within(rows[2]!).getByRole('button', { name: 'Revoke ci-runner' })).toBeTruthy();
  });

  it('creates a key with a name and shows it once, with a copy button and a clear warning', async () => {
    const calls = fakeServer();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render();
    await screen.findByRole('table');
    await userEvent.type(screen.getByLabelText('Name'), 'alice laptop{Enter}');
    expect(await screen.findByText(/Copy it now: you won.t see it again/)).toBeTruthy();
    expect(screen.getByLabelText('New API key alice laptop').textContent).toBe(NEW_KEY);
    expect(calls.find((c) => c.method === 'POST')!.body).toBe(JSON.stringify({ name: 'alice laptop' }));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Copy key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(NEW_KEY));
    // The list is read again and has the new key by its prefix only.
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(4));
    await userEvent.click(screen.getByRole('button', { name: 'Done, hide it' }));
    expect(screen.queryByText(NEW_KEY)).toBeNull();
  });

  it("checks the name before any call, and puts the server's refusal at the field", async () => {
    const calls = fakeServer();
    render();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText(/Give the key a name/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(screen.getByLabelText('Name'), 'taken-by-server{Enter}');
    expect(await screen.findByText(/The server says no/)).toBeTruthy();
  });

  it('says at the name field when an active key already has the name (409)', async () => {
    fakeServer();
    render();
    await screen.findByRole('table');
    const input = screen.getByLabelText('Name');
    await userEvent.type(input, 'ci-bot{Enter}');
    const said = await screen.findByText(
      'An active key is already named “ci-bot”: choose another name, or revoke that key first.',
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(said.id || said.closest('[id]')!.id);
  });

  it('revokes only after the confirmation, and says so', async () => {
    const calls = fakeServer();
    const own = render();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Revoke ci-runner' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('stops working at once');
    expect(dialog.textContent).not.toContain('This is the key this dashboard uses');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke key', hidden: true }));
    expect(await screen.findByText(/no longer opens the API/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => new URL(c.url).pathname)).toEqual([
      `/api/keys/${ID(2)}`,
    ]);
    expect(own).not.toHaveBeenCalled();
  });

  it("warns before revoking the dashboard's own key, and tells the page to forget it after", async () => {
    fakeServer();
    const own = render();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Revoke BROWSERDESK_API_KEY' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('This is the key this dashboard uses');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke key', hidden: true }));
    await waitFor(() => expect(own).toHaveBeenCalledOnce());
  });

  it('keeps the last active key: its Revoke is off, and says why', async () => {
    fakeServer({ onlyOne: true });
    render();
    await screen.findByRole('table');
    expect((screen.getByRole('button', { name: 'Revoke BROWSERDESK_API_KEY' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(screen.getByText(/The last active key cannot be revoked/)).toBeTruthy();
  });

  it('asks for nothing without an API key', () => {
    const calls = fakeServer();
    render(vi.fn(), false);
    expect(screen.getByText(/Save an API key above to manage/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create key' })).toBeNull();
    expect(calls).toEqual([]);
  });
});
