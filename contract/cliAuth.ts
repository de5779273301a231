import { z } from 'zod';
import { ApiKeyInfo } from './apiKeys.ts';
import { defineOperations } from './operation.ts';

/**
 * Simplex's CLI logs in through the browser (`simplex login`, simplex/cli/auth.py): it asks for a
 * login ticket without a key, opens `auth_url`, where someone signed in to the dashboard approves or
 * denies, and polls with the ticket's poll token until it is handed a new API key, once.
 */

/** Minutes a login request stays open: the CLI polls for five. */
export const CLI_AUTH_TICKET_MINUTES = 10;

export const CliAuthTicketCreated = z.object({
  ticket_id: z.uuid(),
  poll_token: z.string().describe('Secret: with ticket_id, the only way to poll; never shown again'),
  auth_url: z.url().describe('The dashboard page where a signed-in person approves or denies'),
  expires_at: z.iso.datetime(),
});
export type CliAuthTicketCreated = z.infer<typeof CliAuthTicketCreated>;

/** A poll token is 32 random bytes, base64url; anything far from that is not worth a lookup. */
export const CliAuthPollQuery = z.object({
  ticket_id: z.uuid('ticket_id must be the UUID the request answered'),
  poll_token: z.string().min(1, 'poll_token is required').max(200, 'poll_token is at most 200 characters'),
});
export type CliAuthPollQuery = z.infer<typeof CliAuthPollQuery>;

/** What the CLI reads: `authorized` carries the key, and is answered once; a later poll is a 410. */
export const CliAuthPollAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending') }),
  z.object({ status: z.literal('authorized'), api_key: z.string() }),
  z.object({ status: z.literal('denied') }),
]);
export type CliAuthPollAnswer = z.infer<typeof CliAuthPollAnswer>;

export const CliAuthTicketStatus = z.enum(['pending', 'approved', 'denied', 'collected', 'expired']);
export type CliAuthTicketStatus = z.infer<typeof CliAuthTicketStatus>;

/** A login request as the approval page shows it (with the API key only): who asks, from where, when. */
export const CliAuthTicket = z.object({
  ticket_id: z.uuid(),
  status: CliAuthTicketStatus,
  client: z.string().describe("The requester's User-Agent, as it sent it (control characters removed)"),
  address: z.string().describe('The address the request came from, as this server saw it'),
  requested_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  api_key: ApiKeyInfo.nullable().describe('The key made on approval (never the key itself)'),
});
export type CliAuthTicket = z.infer<typeof CliAuthTicket>;

export const CliAuthTicketParams = z.object({ id: z.uuid('The ticket id must be a UUID') });

export const cliAuthOperations = defineOperations({
  requestCliAuth: {
    operationId: 'requestCliAuth',
    method: 'post',
    path: '/cli-auth/request',
    summary: `Open a browser login for a command-line client (no key): a ticket, its poll token and the page to approve it on, for ${CLI_AUTH_TICKET_MINUTES} minutes`,
    tags: ['cli-auth'],
    auth: false,
    responses: { 200: { description: 'The ticket', schema: CliAuthTicketCreated } },
    errors: [429],
  },
  pollCliAuth: {
    operationId: 'pollCliAuth',
    method: 'get',
    path: '/cli-auth/poll',
    summary:
      'Where a login ticket stands (no key; its poll token): pending, authorized with the new key (once), or denied',
    tags: ['cli-auth'],
    auth: false,
    query: CliAuthPollQuery,
    responses: { 200: { description: 'Where the ticket stands', schema: CliAuthPollAnswer } },
    errors: [404, 410, 422],
  },
  getCliAuthTicket: {
    operationId: 'getCliAuthTicket',
    method: 'get',
    path: '/cli-auth/tickets/{id}',
    summary: 'A login ticket as the approval page shows it: the client, its address, when it asked',
    tags: ['cli-auth'],
    params: CliAuthTicketParams,
    responses: { 200: { description: 'The ticket', schema: CliAuthTicket } },
    errors: [404, 422],
  },
  approveCliAuth: {
    operationId: 'approveCliAuth',
    method: 'post',
    path: '/cli-auth/tickets/{id}/approve',
    summary: 'Approve a pending login: a new API key, named for the CLI and the date, which the client collects once',
    tags: ['cli-auth'],
    params: CliAuthTicketParams,
    responses: { 200: { description: 'The ticket, approved, with the key made', schema: CliAuthTicket } },
    errors: [404, 409, 410, 422],
  },
  denyCliAuth: {
    operationId: 'denyCliAuth',
    method: 'post',
    path: '/cli-auth/tickets/{id}/deny',
    summary: 'Deny a pending login: the client is told so and gets no key',
    tags: ['cli-auth'],
    params: CliAuthTicketParams,
    responses: { 200: { description: 'The ticket, denied', schema: CliAuthTicket } },
    errors: [404, 409, 410, 422],
  },
});
