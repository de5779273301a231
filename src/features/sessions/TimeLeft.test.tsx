// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render as renderDom, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_TIMEOUT_MAX } from '../../../contract/sessions.ts';
import { extendedTimeout, spanWords, TimeLimit, TimeWarning, warnWithinMs } from './TimeLeft.tsx';

const render = (ui: ReactNode) => renderDom(<QueryClientProvider client={new QueryClient()}>{ui}</QueryClientProvider>);
const ID = '11111111-1111-4111-8111-111111111111';
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the time limit', () => {
  it('warns in the last 2 minutes, or the last quarter of a short session', () => {
    expect(warnWithinMs(1200)).toBe(120_000);
    expect(warnWithinMs(86_400)).toBe(120_000);
    expect(warnWithinMs(60)).toBe(15_000);
    expect(spanWords(120_000)).toBe('2 minutes');
    expect(spanWords(15_000)).toBe('15 seconds');
  });

  it('extends by 10 minutes, never past the most a session may live', () => {
    expect(extendedTimeout(1200)).toBe(1800);
    expect(extendedTimeout(SESSION_TIMEOUT_MAX - 100)).toBe(SESSION_TIMEOUT_MAX);
    expect(extendedTimeout(SESSION_TIMEOUT_MAX)).toBeNull();
  });

  it('shows no warning while the end is far, only a quiet Extend', () => {
    render(
      <>
        <TimeLimit session={{ id: ID, timeout: 1200, expires_at: inMs(600_000) }} />
        <TimeWarning session={{ id: ID, timeout: 1200, expires_at: inMs(600_000) }} />
      </>,
    );
    expect(screen.queryByTestId('time-warning')).toBeNull();
    expect(screen.getByRole('button', { name: 'Extend by 10 min' }).className).toContain('secondary');
  });

  it('warns calmly near the end, and Extend sends PATCH /sessions/{id} with the timeout 10 minutes longer', async () => {
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as { timeout: number };
      const session = {
        id: ID,
        workflow_id: ID,
        workflow_name: 'w',
        state: 'live',
        end_reason: null,
        proxies: false,
        timeout: body.timeout,
        webhook_url: null,
        metadata: null,
        created_at: inMs(-1_140_000),
        expires_at: inMs(660_000),
        ended_at: null,
        run: null,
      };
      return new Response(JSON.stringify(session), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    const session = { id: ID, timeout: 1200, expires_at: inMs(60_000) };
    render(
      <>
        <TimeLimit session={session} />
        <TimeWarning session={session} />
      </>,
    );
    const warning = screen.getByTestId('time-warning');
    expect(warning.getAttribute('role')).toBe('status');
    expect(warning.textContent).toMatch(/Less than 2 minutes left: this session ends at .+ and its browser closes/);
    // One button, in the warning.
    const buttons = screen.getAllByRole('button', { name: 'Extend by 10 min' });
    expect(buttons).toHaveLength(1);
    await userEvent.click(buttons[0]!);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(new RegExp(`/api/sessions/${ID}$`));
    expect(init?.method).toBe('PATCH');
    expect(JSON.parse(String(init?.body))).toEqual({ timeout: 1800 });
  });

  it('at the most a session may live, says so and offers no Extend; a refused Extend is said in words', async () => {
    render(<TimeWarning session={{ id: ID, timeout: SESSION_TIMEOUT_MAX, expires_at: inMs(30_000) }} />);
    expect(screen.getByTestId('time-warning').textContent).toMatch(/longest a session may live/);
    expect(screen.queryByRole('button')).toBeNull();
    cleanup();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              error: 'conflict',
              message: 'The session is not live: only a live session can be extended',
            }),
            { status: 409, headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    render(<TimeWarning session={{ id: ID, timeout: 1200, expires_at: inMs(30_000) }} />);
    await userEvent.click(screen.getByRole('button', { name: 'Extend by 10 min' }));
    expect(await screen.findByText('The session was not extended.')).toBeTruthy();
    expect(screen.getByText(/only a live session can be extended/)).toBeTruthy();
  });
});
