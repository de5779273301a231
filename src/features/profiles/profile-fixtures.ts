import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import type { Profile } from '../../../contract/profiles.ts';
import { saveSettings } from '../../api/settings.ts';

/** Test helpers: profiles as the server answers them (contract/profiles.ts), and a fake of its API. */
export const SESSION = '11111111-2222-4333-8444-555555555555';
const WORKFLOW = '22222222-2222-4333-8444-555555555555';

/** For a test file: each test starts with a saved base URL and key and empty storage, and ends with the page and fetch put back. */
export function withSavedKey() {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    saveSettings({ baseUrl: 'http://localhost:8080/api', apiKey: 'k_0123456789abcdef' });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

export function profile(name: string, over: Partial<Profile> = {}): Profile {
  return {
    name,
    size: 2048,
    version: 2,
    versions: [
      {
        version: 2,
        size: 2048,
        source: 'session',
        session_id: SESSION,
        restored_from: null,
        created_at: '2026-11-26T10:00:00.000Z',
      },
      {
        version: 1,
        size: 1024,
        source: 'import',
        session_id: null,
        restored_from: null,
        created_at: '2026-11-25T10:00:00.000Z',
      },
    ],
    created_at: '2026-11-25T10:00:00.000Z',
    last_used_at: '2026-11-26T09:00:00.000Z',
    in_use_by: [],
    ...over,
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A fake server of /api/profiles over `profiles` (created, deleted and restored in place) and
 * create_workflow_session; `refuse` answers a request (method and path) with an error of its own.
 * Returns the requests made, bodies parsed.
 */
export function fakeProfilesServer(
  profiles: Profile[],
  refuse: Record<string, { status: number; message: string }> = {},
) {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = decodeURIComponent(new URL(url).pathname);
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path, body });
      const refusal = refuse[`${method} ${path}`];
      if (refusal) return json({ error: 'refused', message: refusal.message }, refusal.status);
      const [, , , name, action] = path.split('/');
      const found = profiles.find((p) => p.name === name);
      if (path === '/api/profiles' && method === 'GET') return json({ profiles });
      if (path === '/api/profiles' && method === 'POST') {
        const { name: created, storage_state } = body as { name: string; storage_state?: string };
        const imported = profile(created).versions.slice(1);
        const made = storage_state
          ? profile(created, { size: 1024, version: 1, versions: imported, last_used_at: null })
          : profile(created, { size: 0, version: null, versions: [], last_used_at: null });
        profiles.push(made);
        return json(made, 201);
      }
      if (path === '/api/create_workflow_session')
        return json({
          session_id: SESSION,
          workflow_id: WORKFLOW,
          vnc_url: 'http://127.0.0.1/vnc?token=a',
          livestream_url: 'http://127.0.0.1/live?token=b',
          connect_url: 'ws://127.0.0.1/cdp?token=c',
        });
      if (!found) return json({ error: 'not_found', message: `Profile ${name}` }, 404);
      if (method === 'DELETE') {
        profiles.splice(profiles.indexOf(found), 1);
        return json({ deleted: true });
      }
      if (action === 'restore') {
        const { version } = body as { version: number };
        const copy = { ...found.versions.find((v) => v.version === version)! };
        Object.assign(found, {
          version: (found.version ?? 0) + 1,
          versions: [
            { ...copy, version: (found.version ?? 0) + 1, source: 'restore', restored_from: version },
            ...found.versions,
          ],
        });
      }
      return json(found);
    }),
  );
  return calls;
}
