// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionStatus } from '../../../contract/runControl.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { SessionInspector } from './SessionInspector.tsx';

const ID = '11111111-2222-4333-8444-555555555555';
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function status(over: Partial<SessionStatus>): SessionStatus {
  return {
    in_progress: false,
    success: true,
    metadata: null,
    session_metadata: null,
    workflow_metadata: null,
    file_metadata: [],
    scraper_outputs: {},
    structured_output: null,
    final_message: null,
    queued: false,
    queue_position: null,
    paused: false,
    paused_key: '',
    pause_type: null,
    pause_message: null,
    logs_url: 'http://x/logs',
    recording_url: null,
    ...over,
  };
}

const file = (filename: string) => ({
  filename,
  download_url: `/api/session/${ID}/files/${filename}?token=t`,
  file_size: 12,
  download_timestamp: '2026-11-25T10:00:00.000Z',
});

/** The server as the inspector asks it: status, events, storage state, and the zip (`zip`: its answer). */
function serve(
  s: SessionStatus,
  zip: () => Response = () =>
    new Response('PK\u0003\u0004zip', { status: 200, headers: { 'content-type': 'application/zip' } }),
) {
  const calls: { url: URL; headers: Record<string, string> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url);
      calls.push({ url: u, headers: (init?.headers ?? {}) as Record<string, string> });
      if (u.pathname.endsWith('/status')) return json(s);
      if (u.pathname.endsWith('/events')) return json({ events: [], next_index: 0, total: 0, has_more: false });
      if (u.pathname.includes('/get_session_store/')) return json({ error: 'not_found', message: 'none' }, 404);
      if (u.pathname.endsWith('/download_session_files')) return zip();
      return json({ error: 'not_found', message: 'no' }, 404);
    }),
  );
  return calls;
}

beforeEach(() => {
  localStorage.setItem('browserdesk.settings', JSON.stringify({ baseUrl: '/api', apiKey: 'k_test' }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('SessionInspector downloads', () => {
  it('offers the recording as a file (its signed URL) and every download as one zip fetched with the key', async () => {
    const calls = serve(
      status({
        recording_url: `http://public.example:8080/api/session/${ID}/recording?token=sig`,
        file_metadata: [file('a.csv'), file('b.pdf')],
      }),
    );
    const created: Blob[] = [];
    const createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:zip';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderWithQuery(<SessionInspector sessionId={ID} />);

    const recording = await screen.findByRole('link', { name: 'Download recording' });
    // Through the dashboard's own API address (same origin, so the browser saves it), token kept.
    expect(recording.getAttribute('href')).toBe(`${location.origin}/api/session/${ID}/recording?token=sig`);
    expect(recording.getAttribute('download')).toBe('session-11111111.mp4');

    await userEvent.click(await screen.findByRole('button', { name: 'Download all (2 files, zip)' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const zipCall = calls.find((c) => c.url.pathname.endsWith('/download_session_files'))!;
    expect(zipCall.url.searchParams.get('session_id')).toBe(ID);
    expect(zipCall.headers['x-api-key']).toBe('k_test');
    expect(clicked[0]!.download).toBe('session-11111111-files.zip');
    expect(clicked[0]!.href).toBe('blob:zip');
    expect(await created[0]!.text()).toBe('PK\u0003\u0004zip');
  });

  it('offers neither when the session kept no recording and downloaded nothing', async () => {
    serve(status({}));
    renderWithQuery(<SessionInspector sessionId={ID} />);
    expect(await screen.findByText('No recording was kept for this session.')).toBeTruthy();
    expect(screen.getByText('The session downloaded no files.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download recording' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Download all/ })).toBeNull();
  });

  it('says in words when the zip could not be had', async () => {
    serve(status({ file_metadata: [file('a.csv')] }), () =>
      json({ error: 'not_found', message: "The session's files are gone (retention)" }, 404),
    );
    renderWithQuery(<SessionInspector sessionId={ID} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Download all (1 file, zip)' }));
    expect(await screen.findByText('The files could not be downloaded.')).toBeTruthy();
    expect(screen.getByText(/files are gone/)).toBeTruthy();
  });
});
