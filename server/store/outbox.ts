import { randomBytes, randomUUID } from 'node:crypto';
import type { PageKey } from '../domain/pages.ts';
import { nowIso, type Sql } from './db.ts';
import type { SqlValue } from './sql.ts';

export type OutboxStatus = 'pending' | 'delivered' | 'failed' | 'disabled' | 'refused';

export interface OutboxRow {
  id: string;
  url: string;
  type: string;
  payload: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  last_attempt_at: string | null;
}

/** Statuses a person may send again by hand: every attempt failed, the destination said 410 Gone, or it was refused. */
const RETRYABLE = "('failed', 'disabled', 'refused')";

/** A Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The webhook outbox, the 410-disabled destinations and the signing secret. Every node of a
 * cluster reads the same outbox: a row is claimed before it is sent (its next attempt moved to the
 * end of a lease), so two nodes never send one message at once, and a node that dies mid-attempt
 * leaves the row to be taken again when the lease runs out.
 */
export function outboxRepo(sql: Sql) {
  // Postgres: rows another node is claiming right now are skipped, not waited for. SQLite has one writer.
  const skipLocked = sql.engine === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  return {
    async insert(row: {
      url: string;
      type: string;
      payload: string;
      status: OutboxStatus;
      lastError?: string;
    }): Promise<OutboxRow> {
      const full = {
        id: `msg_${randomUUID().replaceAll('-', '')}`,
        url: row.url,
        type: row.type,
        payload: row.payload,
        status: row.status,
        next_attempt_at: Date.now(),
        last_error: row.lastError ?? null,
        created_at: nowIso(),
      };
      await sql.run(
        'INSERT INTO webhook_outbox (id, url, type, payload, status, next_attempt_at, last_error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          full.id,
          full.url,
          full.type,
          full.payload,
          full.status,
          full.next_attempt_at,
          full.last_error,
          full.created_at,
        ],
      );
      return { ...full, attempts: 0, last_status: null, delivered_at: null, last_attempt_at: null };
    },
    get: (id: string) => sql.get<OutboxRow>('SELECT * FROM webhook_outbox WHERE id = ?', [id]),
    /** Newest first, after `before` (the last row of the previous page), optionally of one status. */
    recent: (limit: number, before: PageKey | undefined, status: OutboxStatus | undefined) => {
      const where: string[] = [];
      const args: SqlValue[] = [];
      if (before) {
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        args.push(before.created_at, before.created_at, before.id);
      }
      if (status) {
        where.push('status = ?');
        args.push(status);
      }
      return sql.all<OutboxRow>(
        `SELECT * FROM webhook_outbox ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`,
        [...args, limit],
      );
    },
    /** Take up to `limit` pending rows that are due, oldest first, for this node until `leaseUntil`. */
    async claimDue(now: number, limit: number, leaseUntil: number): Promise<OutboxRow[]> {
      const rows = await sql.all<OutboxRow>(
        `UPDATE webhook_outbox SET next_attempt_at = ? WHERE id IN (
           SELECT id FROM webhook_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, created_at LIMIT ? ${skipLocked}
         ) RETURNING *`,
        [leaseUntil, now, limit],
      );
      return rows.sort((a, b) => a.created_at.localeCompare(b.created_at));
    },
    /**
     * Take a failed, disabled or refused row for one attempt by hand, now, until `leaseUntil` (pending meanwhile,
     * so no node takes it on its schedule); undefined when the row is not in such a state.
     */
    claimForRetry: (id: string, leaseUntil: number) =>
      sql.get<OutboxRow>(
        `UPDATE webhook_outbox SET status = 'pending', next_attempt_at = ? WHERE id = ? AND status IN ${RETRYABLE} RETURNING *`,
        [leaseUntil, id],
      ),
    /** Give a claimed row back unsent (this node is stopping): due again now, for any node. */
    release: (id: string) =>
      sql.run("UPDATE webhook_outbox SET next_attempt_at = ? WHERE id = ? AND status = 'pending'", [Date.now(), id]),
    nextDueAt: async () =>
      (
        await sql.get<{ t: number | null }>(
          "SELECT min(next_attempt_at) AS t FROM webhook_outbox WHERE status = 'pending'",
        )
      )?.t ?? null,
    delivered(id: string, status: number, attempts: number) {
      const at = nowIso();
      return sql.run(
        "UPDATE webhook_outbox SET status = 'delivered', attempts = ?, last_status = ?, last_error = NULL, delivered_at = ?, last_attempt_at = ? WHERE id = ?",
        [attempts, status, at, at, id],
      );
    },
    /** A failed attempt: retry at `nextAt`, or give up (status failed) when nextAt is null. */
    attemptFailed: (id: string, attempts: number, lastStatus: number | null, error: string, nextAt: number | null) =>
      sql.run(
        'UPDATE webhook_outbox SET status = ?, attempts = ?, last_status = ?, last_error = ?, next_attempt_at = ?, last_attempt_at = ? WHERE id = ?',
        [nextAt === null ? 'failed' : 'pending', attempts, lastStatus, error, nextAt ?? Date.now(), nowIso(), id],
      ),
    /** 410 Gone: remember the destination and stop everything still queued for it. */
    disable: (url: string, id: string, attempts: number) =>
      sql.tx(async (tx) => {
        await tx.run('INSERT INTO webhook_disabled (url, disabled_at) VALUES (?, ?) ON CONFLICT (url) DO NOTHING', [
          url,
          nowIso(),
        ]);
        await tx.run('UPDATE webhook_outbox SET attempts = ?, last_status = 410, last_attempt_at = ? WHERE id = ?', [
          attempts,
          nowIso(),
          id,
        ]);
        await tx.run(
          "UPDATE webhook_outbox SET status = 'disabled', last_error = 'destination answered 410 Gone' WHERE url = ? AND status = 'pending'",
          [url],
        );
      }),
    /** The destination may be sent to again (it took a delivery after its 410 Gone). */
    enable: (url: string) => sql.run('DELETE FROM webhook_disabled WHERE url = ?', [url]),
    isDisabled: async (url: string) =>
      (await sql.get('SELECT url FROM webhook_disabled WHERE url = ?', [url])) !== undefined,
    /** The signing secret, created on first use (by whichever node asks first); changed only by rotateSecret. */
    async secret(): Promise<string> {
      await sql.run(
        'INSERT INTO webhook_secret (id, secret, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING',
        [newSecret(), nowIso()],
      );
      return (await sql.get<{ secret: string }>('SELECT secret FROM webhook_secret WHERE id = 1'))!.secret;
    },
    /** A new signing secret in place of the old one (Settings' Rotate, after a leak). */
    async rotateSecret(): Promise<string> {
      const secret = newSecret();
      await sql.run(
        'INSERT INTO webhook_secret (id, secret, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at',
        [secret, nowIso()],
      );
      return secret;
    },
  };
}
export type OutboxRepo = ReturnType<typeof outboxRepo>;
