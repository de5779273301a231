// @vitest-environment jsdom
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runKeys } from '../runs/keys.ts';
import { sessionKeys } from '../sessions/keys.ts';
import { saveSettings } from '../settings.ts';
import { onUnauthorized } from '../unauthorized.ts';
import { isEventsConnected, setEventsConnected } from './connection-state.ts';
import { retryDelay } from './follow-server-events.ts';
import { useServerEvents } from './use-server-events.ts';

const A = '11111111-2222-4333-8444-555555555555';
const B = '99999999-2222-4333-8444-555555555555';
const KEY = 'k_0123456789abcdef';

interface FakeStream {
  send(data: string): void;
  end(): void;
}

/**
 * A fake GET /events: answers the statuses in `refusals` first, then a stream per call that the
 * test writes to. Returns the streams opened and the fetch mock.
 */
function fakeEvents(refusals: number[] = []) {
  const streams: FakeStream[] = [];
  const enc = new TextEncoder();
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    if (!url.endsWith('/api/events')) return new Response('{}', { status: 404 });
    const refusal = refusals.shift();
    if (refusal)
      return new Response(JSON.stringify({ error: 'unauthorized', message: 'No.' }), {
        status: refusal,
        headers: { 'content-type': 'application/json' },
      });
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    streams.push({
      send: (data) => controller.enqueue(enc.encode(`data: ${data}\n\n`)),
      end: () => controller.close(),
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  vi.stubGlobal('fetch', fetch);
  return { streams, fetch };
}

/** A client holding data under `keys`, none invalidated. */
function seeded(client: QueryClient, keys: QueryKey[]) {
  for (const key of keys) client.setQueryData(key, {});
  return client;
}
const invalidated = (client: QueryClient, key: QueryKey) => client.getQueryState(key)?.isInvalidated === true;

const watched = [
  sessionKeys.one(A),
  sessionKeys.status(A),
  sessionKeys.views(A),
  sessionKeys.one(B),
  sessionKeys.status(B),
  sessionKeys.list({ limit: 50 }),
  runKeys.list({}),
];

/** Mount the hook and wait until the stream is open and its on-open refetch has been asked for; then re-seed, so only later events count. */
async function connected(client: QueryClient) {
  const hook = renderHook(() => useServerEvents(client));
  await waitFor(() => expect(isEventsConnected()).toBe(true));
  await waitFor(() => expect(invalidated(client, sessionKeys.one(A))).toBe(true));
  seeded(client, watched);
  return hook;
}

beforeEach(() => {
  localStorage.clear();
  saveSettings({ baseUrl: 'http://localhost:8080/api', apiKey: KEY });
});
afterEach(() => {
  cleanup();
  setEventsConnected(false);
  vi.unstubAllGlobals();
});

describe('useServerEvents', () => {
  it('reads /api/events with the key, and a session.changed makes exactly that session and the lists stale', async () => {
    const { streams, fetch } = fakeEvents();
    const client = seeded(new QueryClient(), watched);
    await connected(client);
    expect(new Headers(fetch.mock.calls[0]![1].headers).get('x-api-key')).toBe(KEY);

    streams[0]!.send(JSON.stringify({ type: 'session.changed', session_id: A }));
    await waitFor(() => expect(invalidated(client, sessionKeys.one(A))).toBe(true));
    expect(invalidated(client, sessionKeys.status(A))).toBe(true);
    expect(invalidated(client, sessionKeys.list({ limit: 50 }))).toBe(true);
    expect(invalidated(client, runKeys.list({}))).toBe(true);
    expect(invalidated(client, sessionKeys.one(B))).toBe(false);
    expect(invalidated(client, sessionKeys.status(B))).toBe(false);
    expect(invalidated(client, sessionKeys.views(A))).toBe(false);
  });

  it('ignores events that do not parse and keeps reading the stream', async () => {
    const { streams } = fakeEvents();
    const client = seeded(new QueryClient(), watched);
    await connected(client);

    for (const bad of [
      'not json',
      JSON.stringify({ type: 'session.deleted', session_id: A }),
      JSON.stringify({ type: 'session.changed' }),
      JSON.stringify({ type: 'run.step', session_id: A, index: 'two' }),
    ]) {
      streams[0]!.send(bad);
    }
    streams[0]!.send(JSON.stringify({ type: 'run.step', session_id: B, index: 1 }));
    await waitFor(() => expect(invalidated(client, sessionKeys.status(B))).toBe(true));
    expect(invalidated(client, sessionKeys.status(A))).toBe(false);
    expect(invalidated(client, sessionKeys.one(A))).toBe(false);
    expect(invalidated(client, sessionKeys.list({ limit: 50 }))).toBe(false);
    expect(isEventsConnected()).toBe(true);
  });

  it('reconnects after the stream ends, and refetches what is live once it is back', async () => {
    const { streams, fetch } = fakeEvents();
    const client = seeded(new QueryClient(), watched);
    await connected(client);

    streams[0]!.end();
    await waitFor(() => expect(isEventsConnected()).toBe(false));
    await waitFor(() => expect(streams).toHaveLength(2));
    await waitFor(() => expect(isEventsConnected()).toBe(true));
    // Events sent while it was down are lost: everything live is refetched.
    await waitFor(() => expect(invalidated(client, sessionKeys.one(B))).toBe(true));
    expect(invalidated(client, sessionKeys.views(A))).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('stops on a 401 without sending the person to Settings, and starts again when a key is saved', async () => {
    const { streams, fetch } = fakeEvents([401]);
    const sentToSettings = vi.fn();
    const off = onUnauthorized(sentToSettings);
    renderHook(() => useServerEvents(new QueryClient()));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    // Longer than the first retry's wait: no second attempt comes.
    await new Promise((r) => setTimeout(r, 1500));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(isEventsConnected()).toBe(false);
    expect(sentToSettings).not.toHaveBeenCalled();

    saveSettings({ baseUrl: 'http://localhost:8080/api', apiKey: 'k_fedcba9876543210' });
    await waitFor(() => expect(isEventsConnected()).toBe(true));
    expect(streams).toHaveLength(1);
    off();
  });

  it('does not connect without an API key', async () => {
    localStorage.clear();
    const { fetch } = fakeEvents();
    renderHook(() => useServerEvents(new QueryClient()));
    await new Promise((r) => setTimeout(r, 100));
    expect(fetch).not.toHaveBeenCalled();
    expect(isEventsConnected()).toBe(false);
  });
});

describe('retryDelay', () => {
  it('waits 1 s after a drop, doubling up to 30 s while the server stays away', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
