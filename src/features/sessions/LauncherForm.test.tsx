// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { LauncherForm } from './LauncherForm.tsx';

afterEach(cleanup);

describe('LauncherForm', () => {
  it('sends every field, with timeout defaulting to 1200 and empty optional fields left out', async () => {
    const onLaunch = vi.fn().mockResolvedValue(undefined);
    render(<LauncherForm onLaunch={onLaunch} />);
    expect((screen.getByLabelText('Timeout (seconds)') as HTMLInputElement).value).toBe('1200');
    await userEvent.type(screen.getByLabelText('Workflow name'), 'checkout');
    await userEvent.click(screen.getByRole('button', { name: 'Launch session' }));
    await waitFor(() => expect(onLaunch).toHaveBeenCalledWith({ workflow_name: 'checkout', proxies: false, timeout: 1200 }));
  });

  it('checks session_data and metadata JSON as you type', async () => {
    const onLaunch = vi.fn();
    render(<LauncherForm onLaunch={onLaunch} />);
    fireEvent.change(screen.getByLabelText('Session data (JSON)'), { target: { value: '{"cookies": [' } });
    expect(await screen.findByText(/session_data must be a string holding valid JSON/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Session data (JSON)'), { target: { value: '{"cookies": [{"name": "a"}]}' } });
    expect(await screen.findByText(/session_data must be a Playwright storage state/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Metadata (JSON)'), { target: { value: 'not json' } });
    expect(await screen.findByText('metadata must be a string holding valid JSON')).toBeTruthy();
    expect(screen.getByLabelText('Metadata (JSON)').getAttribute('aria-invalid')).toBe('true');
  });

  it('refuses a timeout out of range, a non-URL webhook and an empty name', async () => {
    const onLaunch = vi.fn();
    render(<LauncherForm onLaunch={onLaunch} />);
    const timeout = screen.getByLabelText('Timeout (seconds)');
    await userEvent.clear(timeout);
    await userEvent.type(timeout, '10');
    await userEvent.type(screen.getByLabelText('Webhook URL'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Launch session' }));
    expect(await screen.findByText('timeout must be at least 30 seconds')).toBeTruthy();
    expect(screen.getByText('webhook_url must be an http(s) URL')).toBeTruthy();
    expect(screen.getByText('workflow_name must not be empty')).toBeTruthy();
    expect(onLaunch).not.toHaveBeenCalled();
  });

  it('puts a server 422 on the field it names', async () => {
    const onLaunch = vi.fn().mockRejectedValue(
      new ApiError(422, { error: 'invalid_request', message: 'Invalid', issues: [{ path: 'proxies', message: 'no PROXY_URL configured' }] }),
    );
    render(<LauncherForm onLaunch={onLaunch} />);
    await userEvent.type(screen.getByLabelText('Workflow name'), 'w');
    await userEvent.click(screen.getByLabelText('Use proxies'));
    await userEvent.click(screen.getByRole('button', { name: 'Launch session' }));
    expect(await screen.findByText('no PROXY_URL configured')).toBeTruthy();
    expect(onLaunch.mock.calls[0]![0]).toMatchObject({ proxies: true });
  });
});
