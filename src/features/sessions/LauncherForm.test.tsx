// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render as renderDom, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerInfo } from '../../../contract/meta.ts';
import type { ListProfilesResponse } from '../../../contract/profiles.ts';
import { ApiError } from '../../api/errors.ts';
import { LauncherForm } from './LauncherForm.tsx';
import { defaultSessionName } from './launcher-form.ts';

/**
 * The server's facts as GET /server_info answers them (the launcher asks whether a proxy is
 * configured), and its one profile, shop-login, as GET /profiles lists it.
 */
function serveInfo(proxy: boolean) {
  const info: ServerInfo = {
    version: '1.0.0',
    writer_configured: true,
    proxy_configured: proxy,
    max_sessions: 4,
    api_key_file: 'DATA_DIR/api-key',
  };
  const profiles: ListProfilesResponse = {
    profiles: [
      {
        name: 'shop-login',
        size: 1024,
        version: 1,
        versions: [],
        created_at: '2026-11-25T10:00:00.000Z',
        last_used_at: null,
        in_use_by: [],
      },
    ],
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async (url: string) =>
        new Response(JSON.stringify(new URL(url).pathname.endsWith('/profiles') ? profiles : info), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    ),
  );
}
const render = (ui: ReactNode) => renderDom(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);
/** Unfold the fields past the defaults. */
const openAdvanced = () => userEvent.click(screen.getByRole('button', { name: 'Advanced' }));

beforeEach(() => serveInfo(false));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('LauncherForm', () => {
  it('launches at once with the defaults, the other fields folded under Advanced', async () => {
    const onLaunch = vi.fn().mockResolvedValue(undefined);
    render(<LauncherForm onLaunch={onLaunch} />);
    const advanced = screen.getByRole('button', { name: 'Advanced' });
    expect(advanced.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('textbox', { name: 'Start URL' })).toBeNull();
    const launch = screen.getByRole('button', { name: 'Launch browser' });
    expect(launch.getAttribute('aria-describedby')).toBe('launch-summary');
    expect(screen.getByText('Full browser, blank page, 20 min, no profile')).toBeTruthy();
    await userEvent.click(launch);
    await waitFor(() =>
      expect(onLaunch).toHaveBeenCalledWith({
        workflow_name: expect.stringMatching(/^Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
        proxies: false,
        timeout: 1200,
        presentation: 'browser',
      }),
    );
    await userEvent.click(advanced);
    expect(advanced.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Start URL' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Profile' })).toBeTruthy();
  });

  it('opens Advanced when a folded field is refused, so its message is in view', async () => {
    const onLaunch = vi.fn();
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    await userEvent.clear(screen.getByLabelText('Timeout (seconds)'));
    await userEvent.type(screen.getByLabelText('Timeout (seconds)'), '10');
    await openAdvanced();
    expect(screen.getByRole('button', { name: 'Advanced' }).getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    expect(await screen.findByText('Timeout must be at least 30 seconds.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Advanced' }).getAttribute('aria-expanded')).toBe('true');
    expect(onLaunch).not.toHaveBeenCalled();
  });

  it('sends every field, with timeout defaulting to 1200 and empty optional fields left out', async () => {
    const onLaunch = vi.fn().mockResolvedValue(undefined);
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    expect((screen.getByLabelText('Timeout (seconds)') as HTMLInputElement).value).toBe('1200');
    await userEvent.type(screen.getByLabelText('Workflow name'), 'checkout');
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    await waitFor(() =>
      expect(onLaunch).toHaveBeenCalledWith({
        workflow_name: 'checkout',
        proxies: false,
        timeout: 1200,
        presentation: 'browser',
      }),
    );
  });

  it('asks for the full browser by default, and for kiosk when chosen', async () => {
    const onLaunch = vi.fn().mockResolvedValue(undefined);
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    expect((screen.getByRole('radio', { name: /Full browser/ }) as HTMLInputElement).checked).toBe(true);
    await userEvent.type(screen.getByLabelText('Workflow name'), 'embed');
    await userEvent.click(screen.getByRole('radio', { name: /Kiosk/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    await waitFor(() =>
      expect(onLaunch).toHaveBeenCalledWith(expect.objectContaining({ workflow_name: 'embed', presentation: 'kiosk' })),
    );
  });

  it('checks session_data JSON as you type; metadata is any text, sent as typed', async () => {
    const onLaunch = vi.fn().mockResolvedValue(undefined);
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    fireEvent.change(screen.getByLabelText('Session data (JSON)'), { target: { value: '{"cookies": [' } });
    expect(await screen.findByText(/^Session data must be valid JSON/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Session data (JSON)'), {
      target: { value: '{"cookies": [{"name": "a"}]}' },
    });
    expect(await screen.findByText(/^Session data must be a Playwright storage state/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Session data (JSON)'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Metadata'), { target: { value: 'customer 42' } });
    await userEvent.type(screen.getByLabelText('Workflow name'), 'tagged');
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    await waitFor(() =>
      expect(onLaunch).toHaveBeenCalledWith(
        expect.objectContaining({ workflow_name: 'tagged', metadata: 'customer 42' }),
      ),
    );
    expect(screen.getByLabelText('Metadata').getAttribute('aria-invalid')).toBe('false');
  });

  it('refuses a timeout out of range, a non-URL webhook and a name over 200 characters', async () => {
    const onLaunch = vi.fn();
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    const timeout = screen.getByLabelText('Timeout (seconds)');
    await userEvent.clear(timeout);
    await userEvent.type(timeout, '10');
    await userEvent.type(screen.getByLabelText('Webhook URL'), 'nope');
    fireEvent.change(screen.getByLabelText('Workflow name'), { target: { value: 'x'.repeat(201) } });
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    expect(await screen.findByText('Timeout must be at least 30 seconds.')).toBeTruthy();
    expect(screen.getByText('Webhook URL must be an http(s) URL.')).toBeTruthy();
    expect(screen.getByText('Workflow name must be at most 200 characters.')).toBeTruthy();
    expect(onLaunch).not.toHaveBeenCalled();
  });

  it('sends a start URL and a user agent when given, and refuses a start URL that is not http(s)', async () => {
    const onLaunch = vi.fn().mockResolvedValue(undefined);
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    await userEvent.type(screen.getByLabelText('Start URL'), 'javascript:alert(1)');
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    expect(await screen.findByText(/Start URL must be an http\(s\) URL/)).toBeTruthy();
    expect(onLaunch).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText('Start URL'));
    await userEvent.type(screen.getByLabelText('Start URL'), 'https://example.com/shop');
    await userEvent.type(screen.getByLabelText('User agent'), 'Mozilla/5.0 (Test)');
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    await waitFor(() =>
      expect(onLaunch).toHaveBeenCalledWith(
        expect.objectContaining({ start_url: 'https://example.com/shop', user_agent: 'Mozilla/5.0 (Test)' }),
      ),
    );
  });

  it('launches with no name: the session is named by when it starts (the API requires a name)', async () => {
    const onLaunch = vi.fn().mockResolvedValue(undefined);
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    const name = screen.getByLabelText('Workflow name') as HTMLInputElement;
    expect(name.placeholder).toMatch(/^Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await userEvent.type(name, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    await waitFor(() =>
      expect(onLaunch).toHaveBeenCalledWith(
        expect.objectContaining({ workflow_name: expect.stringMatching(/^Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/) }),
      ),
    );
    expect(defaultSessionName(new Date(2026, 10, 5, 8, 7))).toBe('Session 2026-11-05 08:07');
  });

  it('offers proxies only when the server has a proxy configured', async () => {
    render(<LauncherForm onLaunch={vi.fn()} />);
    await openAdvanced();
    // Wait for the server's answer before saying the box is absent.
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByLabelText('Use proxies')).toBeNull();
    cleanup();
    serveInfo(true);
    render(<LauncherForm onLaunch={vi.fn()} />);
    await openAdvanced();
    expect(await screen.findByLabelText('Use proxies')).toBeTruthy();
  });

  it('starts from a chosen profile, saving back only when asked; None sends no profile', async () => {
    const onLaunch = vi.fn().mockResolvedValue(undefined);
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    const select = screen.getByLabelText('Profile') as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(screen.getByRole('option', { name: 'None' })).toBeTruthy();
    const persist = screen.getByLabelText('Save changes back to the profile') as HTMLInputElement;
    expect(persist.disabled).toBe(true);
    await userEvent.selectOptions(select, await screen.findByRole('option', { name: 'shop-login' }));
    expect(persist.disabled).toBe(false);
    await userEvent.click(persist);
    await userEvent.type(screen.getByLabelText('Workflow name'), 'logged in');
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    await waitFor(() =>
      expect(onLaunch).toHaveBeenCalledWith(
        expect.objectContaining({ workflow_name: 'logged in', profile: { name: 'shop-login', persist: true } }),
      ),
    );
    await userEvent.selectOptions(select, 'None');
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    await waitFor(() => expect(onLaunch).toHaveBeenCalledTimes(2));
    expect(onLaunch.mock.calls[1]![0]).not.toHaveProperty('profile', expect.anything());
  });

  it('puts a server 422 on the field it names', async () => {
    serveInfo(true);
    const onLaunch = vi.fn().mockRejectedValue(
      new ApiError(422, {
        error: 'invalid_request',
        message: 'Invalid',
        issues: [{ path: 'proxies', message: 'no PROXY_URL configured' }],
      }),
    );
    render(<LauncherForm onLaunch={onLaunch} />);
    await openAdvanced();
    await userEvent.type(screen.getByLabelText('Workflow name'), 'w');
    await userEvent.click(await screen.findByLabelText('Use proxies'));
    await userEvent.click(screen.getByRole('button', { name: 'Launch browser' }));
    expect(await screen.findByText('No PROXY_URL configured.')).toBeTruthy();
    expect(onLaunch.mock.calls[0]![0]).toMatchObject({ proxies: true });
  });
});
