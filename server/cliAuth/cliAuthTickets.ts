import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ApiKeyInfo } from '../../contract/apiKeys.ts';
import {
  CLI_AUTH_TICKET_MINUTES,
  type CliAuthPollAnswer,
  type CliAuthTicket,
  type CliAuthTicketCreated,
  type CliAuthTicketStatus,
} from '../../contract/cliAuth.ts';
import { AtCapacity, Conflict, Gone, NotFound } from '../domain/errors.ts';
import { open, seal } from '../secrets/aead.ts';
import type { CliAuthTicketRow, CliAuthTicketsRepo } from '../store/cliAuthTickets.ts';

/** Ticket requests one address may make per ticket lifetime (counted in the store: across a cluster). */
export const CLI_AUTH_REQUESTS_PER_ADDRESS = 10;
/** Pending tickets at once, from every address: a flood from many addresses stops here. */
export const CLI_AUTH_OPEN_TICKETS = 100;
const TICKET_MS = CLI_AUTH_TICKET_MINUTES * 60_000;
/** How long an expired ticket is still known, so that its poll is a 410 rather than a 404. */
const FORGET_AFTER_MS = 24 * 3_600_000;
const CLIENT_MAX_CHARS = 200;

/** What the tickets need of the API keys (server/secrets/apiKeys.ts's ApiKeyAdmin and the store). */
export interface TicketKeys {
  create(name: string, currentId: string | null): Promise<ApiKeyInfo & { key: string }>;
  find(id: string, currentId: string | null): Promise<ApiKeyInfo | undefined>;
  revoke(id: string): Promise<unknown>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();
/** Compared against when no ticket has the id, so an unknown ticket costs what a wrong token does. */
const DECOY_HASH = sha256('no such ticket');

/** The User-Agent as the approval page shows it: no control characters, bounded. */
function clientOf(userAgent: string | undefined): string {
  const text = (userAgent ?? '').replace(/\p{Cc}/gu, '').trim();
  return text.slice(0, CLIENT_MAX_CHARS) || 'unnamed client';
}

/**
 * Browser logins of command-line clients (`simplex login`): a ticket is requested without a key,
 * approved or denied by someone holding one (the dashboard's page at `authUrl`), and its key handed
 * to the poller once. The poll token is kept as its hash and compared in constant time; the key
 * made on approval is sealed under `sealingKey` until collected, and revoked if never collected.
 */
export class CliAuthTickets {
  constructor(
    private readonly deps: {
      repo: CliAuthTicketsRepo;
      keys: TicketKeys;
      /** A key derived from the server's secret key for this use alone. */
      sealingKey: Buffer;
      /** The dashboard page that shows ticket `id`. */
      authUrl: (id: string) => string;
    },
  ) {}

  async request(userAgent: string | undefined, address: string): Promise<CliAuthTicketCreated> {
    const now = new Date();
    await this.expire(now);
    const pollToken = randomBytes(32).toString('base64url');
    const row: CliAuthTicketRow = {
      id: randomUUID(),
      poll_token_hash: sha256(pollToken).toString('hex'),
      status: 'pending',
      client: clientOf(userAgent),
      address,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TICKET_MS).toISOString(),
      api_key_id: null,
      sealed_api_key: null,
    };
    const outcome = await this.deps.repo.insertWithin(row, {
      now: row.created_at,
      perAddress: CLI_AUTH_REQUESTS_PER_ADDRESS,
      open: CLI_AUTH_OPEN_TICKETS,
    });
    if (!outcome.inserted) {
      const seconds = Math.max(1, Math.ceil((Date.parse(outcome.freesAt) - now.getTime()) / 1000));
      throw new AtCapacity('Too many login requests: finish or wait out the open ones, then try again', seconds);
    }
    return {
      ticket_id: row.id,
      poll_token: pollToken,
      auth_url: this.deps.authUrl(row.id),
      expires_at: row.expires_at,
    };
  }

  /** Only with the ticket's poll token: anything else, including an unknown ticket, is the same 404. */
  async poll(ticketId: string, pollToken: string): Promise<CliAuthPollAnswer> {
    const row = await this.deps.repo.get(ticketId);
    const expected = row ? Buffer.from(row.poll_token_hash, 'hex') : DECOY_HASH;
    const presented = sha256(pollToken);
    if (!(timingSafeEqual(expected, presented) && row))
      throw new NotFound({ message: 'No login request has this ticket and poll token' });
    const now = new Date().toISOString();
    const status = statusAt(row, now);
    if (status === 'pending') return { status: 'pending' };
    if (status === 'denied') return { status: 'denied' };
    if (status === 'expired') throw new Gone('This login request expired: log in again');
    if (status === 'approved' && row.sealed_api_key && (await this.deps.repo.collect(row.id, now)))
      return { status: 'authorized', api_key: this.openKey(row.id, row.sealed_api_key) };
    throw new Gone('The key of this login was already handed out: log in again for another');
  }

  async view(id: string, currentKeyId: string | null): Promise<CliAuthTicket> {
    const now = new Date();
    await this.expire(now);
    return this.show(await this.found(id), now.toISOString(), currentKeyId);
  }

  /**
   * A new key for the client, named for the CLI, the day and the ticket (key names are unique, and
   * a person may log in twice a day); the ticket must still be pending.
   */
  async approve(id: string, currentKeyId: string | null): Promise<CliAuthTicket> {
    const now = new Date().toISOString();
    this.mustBePending(await this.found(id), now);
    const created = await this.deps.keys.create(`Simplex CLI ${now.slice(0, 10)} ${id.slice(0, 8)}`, currentKeyId);
    const sealed = seal(this.deps.sealingKey, Buffer.from(id), Buffer.from(created.key)).toString('base64');
    if (!(await this.deps.repo.approve(id, now, created.id, sealed))) {
      // Denied, approved or expired meanwhile (another tab, another node): the key must not outlive this.
      await this.deps.keys.revoke(created.id);
      this.mustBePending(await this.found(id), now);
    }
    return this.show(await this.found(id), now, currentKeyId);
  }

  async deny(id: string, currentKeyId: string | null): Promise<CliAuthTicket> {
    const now = new Date().toISOString();
    this.mustBePending(await this.found(id), now);
    if (!(await this.deps.repo.deny(id, now))) this.mustBePending(await this.found(id), now);
    return this.show(await this.found(id), now, currentKeyId);
  }

  /** Expired tickets' uncollected keys are revoked (no one holds them), and long-expired tickets forgotten. */
  private async expire(now: Date): Promise<void> {
    const stranded = await this.deps.repo.expire(
      now.toISOString(),
      new Date(now.getTime() - FORGET_AFTER_MS).toISOString(),
    );
    for (const keyId of stranded) await this.deps.keys.revoke(keyId);
  }

  private async found(id: string): Promise<CliAuthTicketRow> {
    const row = await this.deps.repo.get(id);
    if (!row) throw new NotFound('Login request');
    return row;
  }

  private mustBePending(row: CliAuthTicketRow, now: string): void {
    const status = statusAt(row, now);
    if (status === 'expired') throw new Gone('This login request expired: run the login again');
    if (status !== 'pending') throw new Conflict(`This login request was already ${status}`);
  }

  private async show(row: CliAuthTicketRow, now: string, currentKeyId: string | null): Promise<CliAuthTicket> {
    return {
      ticket_id: row.id,
      status: statusAt(row, now),
      client: row.client,
      address: row.address,
      requested_at: row.created_at,
      expires_at: row.expires_at,
      api_key: row.api_key_id ? ((await this.deps.keys.find(row.api_key_id, currentKeyId)) ?? null) : null,
    };
  }

  private openKey(id: string, sealed: string): string {
    return open(this.deps.sealingKey, Buffer.from(id), Buffer.from(sealed, 'base64')).toString('utf8');
  }
}

/** A ticket still pending or approved past its expiry is expired; decided ones keep their word. */
function statusAt(row: CliAuthTicketRow, now: string): CliAuthTicketStatus {
  if ((row.status === 'pending' || row.status === 'approved') && row.expires_at <= now) return 'expired';
  return row.status;
}
