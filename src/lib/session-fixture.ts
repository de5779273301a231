import type { Session } from '../../contract/sessions.ts';

/** For component tests: a live session as GET /api/sessions/{id} answers it, with `over` changed. */
export const sessionFixture = (over: Partial<Session> = {}): Session => ({
  id: '11111111-2222-4333-8444-555555555555',
  workflow_id: '6f1c2a8e-54a4-4a77-9d55-1f0a2b3c4d5e',
  workflow_name: 'checkout flow',
  state: 'live',
  end_reason: null,
  proxies: false,
  isolation: 'browser',
  timeout: 1200,
  webhook_url: null,
  metadata: null,
  created_at: '2026-11-23T10:00:00.000Z',
  expires_at: '2999-01-01T00:00:00.000Z',
  ended_at: null,
  ...over,
});
