import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyList } from '../contract/apiKeys.ts';
import { CliAuthPollAnswer, CliAuthTicket, CliAuthTicketCreated } from '../contract/cliAuth.ts';
import { ErrorBody } from '../contract/errors.ts';
import { startServer, type TestServer } from './helpers/server.ts';

// The browser login of Simplex's CLI (`simplex login`) at the paths its base URL gives: a ticket
// without a key, approved or denied with one, and the key handed to the poller once.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.discard());

const CLI_AGENT = 'python-requests/2.28.1';

async function requestTicket(on = server): Promise<CliAuthTicketCreated> {
  const res = await fetch(`${on.url}/api/cli-auth/request`, { method: 'POST', headers: { 'user-agent': CLI_AGENT } });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return CliAuthTicketCreated.parse(await res.json());
}

const poll = (t: CliAuthTicketCreated, on = server) =>
  fetch(`${on.url}/api/cli-auth/poll?${new URLSearchParams({ ticket_id: t.ticket_id, poll_token: t.poll_token })}`);

async function pollAnswer(t: CliAuthTicketCreated, on = server): Promise<CliAuthPollAnswer> {
  const res = await poll(t, on);
  expect(res.status).toBe(200);
  return CliAuthPollAnswer.parse(await res.json());
}

const decide = (id: string, decision: 'approve' | 'deny', on = server) =>
  on.api(`/api/cli-auth/tickets/${id}/${decision}`, { method: 'POST' });

async function ticketView(id: string): Promise<CliAuthTicket> {
  const res = await server.api(`/api/cli-auth/tickets/${id}`);
  expect(res.status).toBe(200);
  return CliAuthTicket.parse(await res.json());
}

/** Move a ticket's expiry into the past, as ten minutes would. */
const expireInStore = (id: string) =>
  server.app.db.run('UPDATE cli_auth_tickets SET expires_at = ? WHERE id = ?', [
    new Date(Date.now() - 1000).toISOString(),
    id,
  ]);

describe('simplex login through the browser', () => {
  it('answers a ticket for ten minutes whose page shows the client, its address and when it asked', async () => {
    const before = Date.now();
    const t = await requestTicket();
    expect(t.poll_token.length).toBeGreaterThanOrEqual(43);
    expect(t.auth_url).toBe(`${server.url}/cli-auth/${t.ticket_id}`);
    expect(Date.parse(t.expires_at) - before).toBeGreaterThanOrEqual(10 * 60_000 - 1000);
    expect(Date.parse(t.expires_at) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(await pollAnswer(t)).toEqual({ status: 'pending' });

    const shown = await ticketView(t.ticket_id);
    expect(shown).toMatchObject({ status: 'pending', client: CLI_AGENT, address: '127.0.0.1', api_key: null });
    expect(Date.parse(shown.requested_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(shown)).not.toContain(t.poll_token);
  });

  it('approval makes a key named for the CLI and the day, listed like any key, handed to the poller exactly once', async () => {
    const t = await requestTicket();
    const res = await decide(t.ticket_id, 'approve');
    expect(res.status).toBe(200);
    const approved = CliAuthTicket.parse(await res.json());
    const day = new Date().toISOString().slice(0, 10);
    expect(approved).toMatchObject({
      status: 'approved',
      api_key: { name: `Simplex CLI ${day} ${t.ticket_id.slice(0, 8)}`, revoked_at: null },
    });

    const listed = ApiKeyList.parse(await (await server.api('/api/keys')).json()).items;
    expect(listed.find((k) => k.id === approved.api_key!.id)).toMatchObject({
      name: `Simplex CLI ${day} ${t.ticket_id.slice(0, 8)}`,
    });

    const answer = await pollAnswer(t);
    if (answer.status !== 'authorized') throw new Error(`expected authorized, got ${answer.status}`);
    expect(answer.api_key).toMatch(/^bd_/);
    expect(answer.api_key.slice(0, 10)).toBe(approved.api_key!.prefix);
    const withKey = await fetch(`${server.url}/api/search_workflows?workflow_name=x`, {
      headers: { 'x-api-key': answer.api_key },
    });
    expect(withKey.status).toBe(200);

    const again = await poll(t);
    expect(again.status).toBe(410);
    const body = ErrorBody.parse(await again.json());
    expect(body.error).toBe('gone');
    expect(JSON.stringify(body)).not.toContain(answer.api_key);
    expect((await ticketView(t.ticket_id)).status).toBe('collected');
    // Decided once: neither decision can be taken again.
    expect((await decide(t.ticket_id, 'deny')).status).toBe(409);
    expect((await decide(t.ticket_id, 'approve')).status).toBe(409);
  });

  it('a denied login says so to every poll, makes no key, and cannot be approved after', async () => {
    const keysBefore = ApiKeyList.parse(await (await server.api('/api/keys')).json()).items.length;
    const t = await requestTicket();
    const res = await decide(t.ticket_id, 'deny');
    expect(res.status).toBe(200);
    expect(CliAuthTicket.parse(await res.json())).toMatchObject({ status: 'denied', api_key: null });
    expect(await pollAnswer(t)).toEqual({ status: 'denied' });
    expect(await pollAnswer(t)).toEqual({ status: 'denied' });
    expect((await decide(t.ticket_id, 'approve')).status).toBe(409);
    expect(ApiKeyList.parse(await (await server.api('/api/keys')).json()).items).toHaveLength(keysBefore);
  });

  it('after ten minutes a ticket is gone: its poll is a 410 and it can be neither approved nor denied', async () => {
    const t = await requestTicket();
    await expireInStore(t.ticket_id);
    expect((await poll(t)).status).toBe(410);
    expect((await decide(t.ticket_id, 'approve')).status).toBe(410);
    expect((await decide(t.ticket_id, 'deny')).status).toBe(410);
    expect((await ticketView(t.ticket_id)).status).toBe('expired');
  });

  it('a key approved but never collected before the expiry is revoked, and no poll can have it', async () => {
    const t = await requestTicket();
    const approved = CliAuthTicket.parse(await (await decide(t.ticket_id, 'approve')).json());
    await expireInStore(t.ticket_id);
    expect((await poll(t)).status).toBe(410);
    // The next request (or a look at the page) sweeps: the stranded key stops working.
    await requestTicket();
    const view = await ticketView(t.ticket_id);
    expect(view.status).toBe('expired');
    expect(view.api_key).toMatchObject({ id: approved.api_key!.id, revoked_at: expect.any(String) });
    const row = await server.app.db.get<{ sealed_api_key: string | null }>(
      'SELECT sealed_api_key FROM cli_auth_tickets WHERE id = ?',
      [t.ticket_id],
    );
    expect(row?.sealed_api_key).toBeNull();
  });

  it('keeps tickets in the store: a ticket made before a restart is approved and collected after it', async () => {
    const first = await startServer({ BROWSERDESK_API_KEY: server.apiKey });
    const t = await requestTicket(first);
    await first.close();
    const second = await startServer({ BROWSERDESK_API_KEY: server.apiKey }, first.dataDir);
    try {
      expect(await pollAnswer(t, second)).toEqual({ status: 'pending' });
      expect((await decide(t.ticket_id, 'approve', second)).status).toBe(200);
      expect((await pollAnswer(t, second)).status).toBe('authorized');
    } finally {
      await second.close();
      fs.rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});
