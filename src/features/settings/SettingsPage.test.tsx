// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSettings, saveSettings } from '../../api/settings.ts';
import { SettingsPage } from './SettingsPage.tsx';

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/settings', Component: SettingsPage },
      { path: '/sessions', element: <h1>Sessions here</h1> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SettingsPage', () => {
  it('validates the fields before any call', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderAt('/settings');
    const url = screen.getByLabelText('API base URL');
    await userEvent.clear(url);
    await userEvent.type(url, 'not a url');
    await userEvent.click(screen.getByRole('button', { name: 'Check and save' }));
    expect(await screen.findByText(/Enter an http\(s\) address/)).toBeTruthy();
    expect(await screen.findByText(/Enter the API key/)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says where an API key comes from', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderAt('/settings');
    const hint = document.getElementById(
      screen.getByLabelText('API key').getAttribute('aria-describedby')!.split(' ')[0]!,
    )!;
    expect(hint.textContent).toContain('DATA_DIR/api-key');
    expect(hint.textContent).toContain('npm run keys -- create NAME');
  });

  it('does not save a key the server refuses', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(answer(401, { error: 'unauthorized', message: 'API key missing or invalid' })),
    );
    renderAt('/settings');
    await userEvent.type(screen.getByLabelText('API key'), 'wrong_key_0123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Check and save' }));
    expect(await screen.findByText('The server refused this API key (401).')).toBeTruthy();
    expect(loadSettings().apiKey).toBe('');
  });

  it('saves a key that passes the test call and returns to the page it came from', async () => {
    const fetch = vi.fn().mockResolvedValue(
      answer(200, {
        version: '1.0.0',
        writer_configured: false,
        proxy_configured: false,
        max_sessions: 4,
        api_key_file: 'DATA_DIR/api-key',
      }),
    );
    vi.stubGlobal('fetch', fetch);
    const router = renderAt('/settings?from=%2Fsessions&reason=unauthorized');
    expect(screen.getByRole('alert').textContent).toContain('valid API key');
    await userEvent.type(screen.getByLabelText('API key'), 'good_key_0123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Check and save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sessions'));
    expect(loadSettings().apiKey).toBe('good_key_0123456789');
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toMatch(/\/api\/server_info$/);
    expect((init.headers as Record<string, string>)['x-api-key']).toBe('good_key_0123456789');
  });

  it('clears the saved key after a confirmation, keeping the base URL, and says it still works elsewhere', async () => {
    saveSettings({ baseUrl: 'http://server.test/api', apiKey: 'saved_key_0123456789' });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(404, { error: 'not_found', message: 'nope' })));
    renderAt('/settings');
    await userEvent.click(screen.getByRole('button', { name: 'Clear the saved key' }));
    expect(loadSettings().apiKey).toBe('saved_key_0123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Clear the key', hidden: true }));
    expect(loadSettings()).toEqual({ baseUrl: 'http://server.test/api', apiKey: '' });
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect(screen.getByText(/It still works elsewhere until it is revoked/).getAttribute('role')).toBe('status');
    expect(screen.queryByRole('button', { name: 'Clear the saved key' })).toBeNull();
  });

  it('offers no clearing when no key is saved', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderAt('/settings');
    expect(screen.queryByRole('button', { name: 'Clear the saved key' })).toBeNull();
  });
});
