import type { Sql } from './db.ts';

export type CliAuthTicketState = 'pending' | 'approved' | 'denied' | 'collected' | 'expired';

export interface CliAuthTicketRow {
  id: string;
  poll_token_hash: string;
  status: CliAuthTicketState;
  client: string;
  address: string;
  created_at: string;
  expires_at: string;
  api_key_id: string | null;
  /** base64 of the sealed key (server/cliAuth/), from approval until collected. */
  sealed_api_key: string | null;
}

/** Limits a new ticket must fit under, counted over the tickets not yet expired at `now`. */
export interface TicketLimits {
  now: string;
  perAddress: number;
  open: number;
}

/**
 * The cli_auth_tickets table. Every change of status is one conditional UPDATE, so two nodes (or two
 * polls) racing on a ticket cannot both win: the caller acts only when it changed the row.
 */
export function cliAuthTicketsRepo(sql: Sql) {
  return {
    /**
     * Insert the ticket unless its address already asked `perAddress` times, or `open` tickets are
     * pending, among those not expired: then the expiry of the oldest counted, when room frees.
     * Counted and inserted under one lock (Postgres: an advisory lock; SQLite: its one writer).
     */
    insertWithin: (row: CliAuthTicketRow, limits: TicketLimits) =>
      sql.tx(async (tx): Promise<{ inserted: true } | { inserted: false; freesAt: string }> => {
        if (tx.engine === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(7415039)');
        const byAddress = (await tx.get<{ n: number; first: string | null }>(
          'SELECT count(*) AS n, min(expires_at) AS first FROM cli_auth_tickets WHERE address = ? AND expires_at > ?',
          [row.address, limits.now],
        ))!;
        if (Number(byAddress.n) >= limits.perAddress) return { inserted: false, freesAt: byAddress.first! };
        const pending = (await tx.get<{ n: number; first: string | null }>(
          "SELECT count(*) AS n, min(expires_at) AS first FROM cli_auth_tickets WHERE status = 'pending' AND expires_at > ?",
          [limits.now],
        ))!;
        if (Number(pending.n) >= limits.open) return { inserted: false, freesAt: pending.first! };
        await tx.run(
          `INSERT INTO cli_auth_tickets (id, poll_token_hash, status, client, address, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
          [row.id, row.poll_token_hash, row.status, row.client, row.address, row.created_at, row.expires_at],
        );
        return { inserted: true };
      }),
    get: (id: string) => sql.get<CliAuthTicketRow>('SELECT * FROM cli_auth_tickets WHERE id = ?', [id]),
    /** pending → approved with its key, while unexpired; true when this call did it. */
    approve: async (id: string, now: string, apiKeyId: string, sealedApiKey: string) =>
      (await sql.run(
        `UPDATE cli_auth_tickets SET status = 'approved', api_key_id = ?, sealed_api_key = ?
         WHERE id = ? AND status = 'pending' AND expires_at > ?`,
        [apiKeyId, sealedApiKey, id, now],
      )) === 1,
    /** pending → denied, while unexpired; true when this call did it. */
    deny: async (id: string, now: string) =>
      (await sql.run(
        "UPDATE cli_auth_tickets SET status = 'denied' WHERE id = ? AND status = 'pending' AND expires_at > ?",
        [id, now],
      )) === 1,
    /** approved → collected, dropping the sealed key, while unexpired; true when this call did it (once per ticket). */
    collect: async (id: string, now: string) =>
      (await sql.run(
        `UPDATE cli_auth_tickets SET status = 'collected', sealed_api_key = NULL
         WHERE id = ? AND status = 'approved' AND expires_at > ?`,
        [id, now],
      )) === 1,
    /**
     * Tickets past their expiry that were approved and never collected become expired, their sealed
     * key dropped: the ids of the keys they made, which no one holds. Rows expired before `forgetBefore`
     * are deleted (until then a poll of an expired ticket is a 410, not a 404).
     */
    expire: (now: string, forgetBefore: string) =>
      sql.tx(async (tx) => {
        const stranded = await tx.all<{ id: string; api_key_id: string }>(
          "SELECT id, api_key_id FROM cli_auth_tickets WHERE status = 'approved' AND expires_at <= ?",
          [now],
        );
        for (const { id } of stranded)
          await tx.run(
            "UPDATE cli_auth_tickets SET status = 'expired', sealed_api_key = NULL WHERE id = ? AND status = 'approved'",
            [id],
          );
        await tx.run('DELETE FROM cli_auth_tickets WHERE expires_at < ?', [forgetBefore]);
        return stranded.map((t) => t.api_key_id);
      }),
  };
}
export type CliAuthTicketsRepo = ReturnType<typeof cliAuthTicketsRepo>;
