import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedApiKey } from '../../contract/apiKeys.ts';
import { CliAuthTicketCreated } from '../../contract/cliAuth.ts';
import { CLI_AUTH_OPEN_TICKETS, CLI_AUTH_REQUESTS_PER_ADDRESS } from '../../server/cliAuth/cliAuthTickets.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';

// The CLI's browser login tried as an attacker would: tickets guessed, a poll token taken to another
// ticket, a poll replayed for a second copy of the key, decisions without a key, and a flood of
// requests from one address and from many. Each test asks from its own loopback address (Linux
// answers all of 127/8), since tickets are counted per address.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.discard());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request from `localAddress`: the address the server counts tickets by. */
function from(localAddress: string, method: string, pathname: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${server.url}${pathname}`, { method, localAddress, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function ticketFrom(address: string): Promise<CliAuthTicketCreated> {
  const res = await from(address, 'POST', '/api/cli-auth/request');
  expect(res.status, res.body).toBe(200);
  return CliAuthTicketCreated.parse(JSON.parse(res.body));
}

const pollPath = (ticketId: string, pollToken: string) =>
  `/api/cli-auth/poll?${new URLSearchParams({ ticket_id: ticketId, poll_token: pollToken })}`;
const poll = (ticketId: string, pollToken: string) => fetch(server.url + pollPath(ticketId, pollToken));
const approve = (id: string) => server.api(`/api/cli-auth/tickets/${id}/approve`, { method: 'POST' });
const statusInStore = async (id: string) =>
  (await server.app.db.get<{ status: string }>('SELECT status FROM cli_auth_tickets WHERE id = ?', [id]))?.status;

describe('the CLI login routes', () => {
  it('say nothing about a guessed ticket: an unknown one and a wrong token get the same 404', async () => {
    const real = await ticketFrom('127.0.0.2');
    const answers = new Set<string>();
    const guesses: [string, string][] = [
      [randomUUID(), real.poll_token],
      [randomUUID(), randomBytes(32).toString('base64url')],
      [real.ticket_id, randomBytes(32).toString('base64url')],
      [real.ticket_id, real.poll_token.slice(0, -1)],
      [real.ticket_id, `${real.poll_token}A`],
      [real.ticket_id, real.poll_token.toUpperCase()],
    ];
    for (const [ticketId, token] of guesses) {
      const res = await poll(ticketId, token);
      expect(res.status, `${ticketId} ${token}`).toBe(404);
      answers.add(await res.text());
    }
    expect(answers.size).toBe(1);
    expect([...answers][0]).not.toMatch(/pending|127\.0\.0|python|expires/);
    // The ticket itself was never touched by the guesses.
    expect(await statusInStore(real.ticket_id)).toBe('pending');
    expect(await (await poll(real.ticket_id, real.poll_token)).json()).toEqual({ status: 'pending' });
  });

  it("refuse one ticket's poll token on another, even once that other is approved", async () => {
    const mine = await ticketFrom('127.0.0.3');
    const theirs = await ticketFrom('127.0.0.3');
    expect((await approve(theirs.ticket_id)).status).toBe(200);
    const res = await poll(theirs.ticket_id, mine.poll_token);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('bd_');
    expect(await statusInStore(theirs.ticket_id)).toBe('approved');
    expect(((await (await poll(theirs.ticket_id, theirs.poll_token)).json()) as { status: string }).status).toBe(
      'authorized',
    );
  });

  it('hand the key out once, however the polls are replayed or raced', async () => {
    const t = await ticketFrom('127.0.0.4');
    expect((await approve(t.ticket_id)).status).toBe(200);
    const raced = await Promise.all(Array.from({ length: 12 }, () => poll(t.ticket_id, t.poll_token)));
    const statuses = raced.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(11).fill(410)]);
    const bodies = await Promise.all(raced.map((r) => r.text()));
    expect(bodies.filter((b) => b.includes('bd_'))).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect((await poll(t.ticket_id, t.poll_token)).status).toBe(410);
    // Nothing in the store can give it out again: no token, no key, sealed or not.
    const row = await server.app.db.get<Record<string, string | null>>('SELECT * FROM cli_auth_tickets WHERE id = ?', [
      t.ticket_id,
    ]);
    expect(row?.sealed_api_key).toBeNull();
    expect(JSON.stringify(row)).not.toContain(t.poll_token);
  });

  it('never keep the key or the token in the clear while the key waits to be collected', async () => {
    const t = await ticketFrom('127.0.0.5');
    expect((await approve(t.ticket_id)).status).toBe(200);
    const row = await server.app.db.get<Record<string, string | null>>('SELECT * FROM cli_auth_tickets WHERE id = ?', [
      t.ticket_id,
    ]);
    expect(row?.sealed_api_key).toEqual(expect.any(String));
    const key = ((await (await poll(t.ticket_id, t.poll_token)).json()) as { api_key: string }).api_key;
    expect(JSON.stringify(row)).not.toContain(key);
    expect(Buffer.from(row!.sealed_api_key!, 'base64').toString('latin1')).not.toContain(key.slice(3, 13));
    expect(JSON.stringify(row)).not.toContain(t.poll_token);
  });

  it('let no one read, approve or deny a ticket without a valid key, however it is sent', async () => {
    const t = await ticketFrom('127.0.0.6');
    const other = CreatedApiKey.parse(await (await postJson(server, '/api/keys', { name: 'soon revoked' })).json());
    expect((await server.api(`/api/keys/${other.id}`, { method: 'DELETE' })).status).toBe(200);
    const attempts: [string, Record<string, string>][] = [
      ['', {}],
      ['', { 'x-api-key': '' }],
      ['', { 'x-api-key': other.key }],
      ['', { 'x-api-key': t.poll_token }],
      ['', { authorization: `Bearer ${server.apiKey}` }],
      [`?api_key=${server.apiKey}`, {}],
      [`?poll_token=${t.poll_token}`, {}],
    ];
    for (const [query, headers] of attempts)
      for (const [method, action] of [
        ['GET', ''],
        ['POST', '/approve'],
        ['POST', '/deny'],
      ] as const) {
        const res = await fetch(`${server.url}/api/cli-auth/tickets/${t.ticket_id}${action}${query}`, {
          method,
          headers,
        });
        expect(res.status, `${method} ${action}${query} ${JSON.stringify(headers)}`).toBe(401);
        expect(await res.text()).not.toMatch(/127\.0\.0|pending/);
      }
    expect(await statusInStore(t.ticket_id)).toBe('pending');
    expect(await (await poll(t.ticket_id, t.poll_token)).json()).toEqual({ status: 'pending' });
  });

  it('refuse malformed polls with a 422 that holds no ticket', async () => {
    const t = await ticketFrom('127.0.0.7');
    for (const query of [
      '',
      `ticket_id=${t.ticket_id}`,
      `poll_token=${t.poll_token}`,
      `ticket_id=not-a-uuid&poll_token=${t.poll_token}`,
      `ticket_id=${t.ticket_id}&ticket_id=${t.ticket_id}&poll_token=${t.poll_token}`,
      `ticket_id=${t.ticket_id}&poll_token=${'a'.repeat(5000)}`,
    ]) {
      const res = await fetch(`${server.url}/api/cli-auth/poll?${query}`);
      expect(res.status, query).toBe(422);
      expect(await res.text()).not.toContain('pending');
    }
    expect(await statusInStore(t.ticket_id)).toBe('pending');
  });

  it('answer a flood from one address with 429 and Retry-After, and bound the open tickets over all addresses', async () => {
    const flooder = '127.0.1.1';
    for (let i = 0; i < CLI_AUTH_REQUESTS_PER_ADDRESS; i++) await ticketFrom(flooder);
    for (let i = 0; i < 5; i++) {
      const refused = await from(flooder, 'POST', '/api/cli-auth/request');
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
    }
    const count = async (where: string, params: string[]) =>
      Number(
        (await server.app.db.get<{ n: number }>(`SELECT count(*) AS n FROM cli_auth_tickets ${where}`, params))!.n,
      );
    expect(await count('WHERE address = ?', [flooder])).toBe(CLI_AUTH_REQUESTS_PER_ADDRESS);
    // Another address still gets its ticket: the limit is the flooder's.
    await ticketFrom('127.0.1.2');

    // Many addresses: past the bound of open tickets every address is refused, and no row is added.
    let refusedAt = -1;
    for (let a = 3; refusedAt < 0 && a < 250; a++) {
      const address = `127.0.1.${a}`;
      for (let i = 0; i < CLI_AUTH_REQUESTS_PER_ADDRESS; i++) {
        const res = await from(address, 'POST', '/api/cli-auth/request');
        if (res.status === 429) {
          refusedAt = a;
          break;
        }
        expect(res.status).toBe(200);
      }
    }
    expect(refusedAt).toBeGreaterThan(0);
    const pending = "WHERE status = 'pending' AND expires_at > ?";
    expect(await count(pending, [new Date().toISOString()])).toBe(CLI_AUTH_OPEN_TICKETS);
    expect((await from('127.0.2.1', 'POST', '/api/cli-auth/request')).status).toBe(429);
    expect(await count(pending, [new Date().toISOString()])).toBe(CLI_AUTH_OPEN_TICKETS);
    // The API itself is untouched by the flood.
    expect((await server.api('/api/server_info')).status).toBe(200);
  });
});
