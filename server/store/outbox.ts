import { randomBytes, randomUUID } from 'node:crypto';
import { nowIso, type Db } from './db.ts';

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
}

/** A Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The webhook outbox, the 410-disabled destinations and the signing secret. */
export function outboxRepo(db: Db) {
  const due = db.prepare<[number, number], OutboxRow>(
    "SELECT * FROM webhook_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, created_at LIMIT ?",
  );
  const nextDue = db.prepare<[], { t: number | null }>("SELECT min(next_attempt_at) AS t FROM webhook_outbox WHERE status = 'pending'");
  const insert = db.prepare(
    'INSERT INTO webhook_outbox (id, url, type, payload, status, next_attempt_at, last_error, created_at) VALUES (@id, @url, @type, @payload, @status, @next_attempt_at, @last_error, @created_at)',
  );
  const isDisabled = db.prepare<[string], { url: string }>('SELECT url FROM webhook_disabled WHERE url = ?');
  return {
    insert(row: { url: string; type: string; payload: string; status: OutboxStatus; lastError?: string }): OutboxRow {
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
      insert.run(full);
      return { ...full, attempts: 0, last_status: null, delivered_at: null };
    },
    get: (id: string) => db.prepare<[string], OutboxRow>('SELECT * FROM webhook_outbox WHERE id = ?').get(id),
    list: () => db.prepare<[], OutboxRow>('SELECT * FROM webhook_outbox ORDER BY created_at').all(),
    due: (now: number, limit: number) => due.all(now, limit),
    nextDueAt: () => nextDue.get()?.t ?? null,
    delivered: (id: string, status: number, attempts: number) =>
      db
        .prepare("UPDATE webhook_outbox SET status = 'delivered', attempts = ?, last_status = ?, last_error = NULL, delivered_at = ? WHERE id = ?")
        .run(attempts, status, nowIso(), id),
    /** A failed attempt: retry at `nextAt`, or give up (status failed) when nextAt is null. */
    attemptFailed: (id: string, attempts: number, lastStatus: number | null, error: string, nextAt: number | null) =>
      db
        .prepare('UPDATE webhook_outbox SET status = ?, attempts = ?, last_status = ?, last_error = ?, next_attempt_at = ? WHERE id = ?')
        .run(nextAt === null ? 'failed' : 'pending', attempts, lastStatus, error, nextAt ?? Date.now(), id),
    /** 410 Gone: remember the destination and stop everything still queued for it. */
    disable: db.transaction((url: string, id: string, attempts: number) => {
      db.prepare('INSERT OR IGNORE INTO webhook_disabled (url, disabled_at) VALUES (?, ?)').run(url, nowIso());
      db.prepare("UPDATE webhook_outbox SET attempts = ?, last_status = 410 WHERE id = ?").run(attempts, id);
      db.prepare("UPDATE webhook_outbox SET status = 'disabled', last_error = 'destination answered 410 Gone' WHERE url = ? AND status = 'pending'").run(url);
    }),
    isDisabled: (url: string) => isDisabled.get(url) !== undefined,
    /** The signing secret, created on first use; changed only by rotateSecret. */
    secret: db.transaction((): string => {
      const row = db.prepare<[], { secret: string }>('SELECT secret FROM webhook_secret WHERE id = 1').get();
      if (row) return row.secret;
      const secret = newSecret();
      db.prepare('INSERT INTO webhook_secret (id, secret, created_at) VALUES (1, ?, ?)').run(secret, nowIso());
      return secret;
    }),
    /** A new signing secret in place of the old one (Settings' Rotate, after a leak). */
    rotateSecret: (): string => {
      const secret = newSecret();
      db.prepare('INSERT INTO webhook_secret (id, secret, created_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at').run(secret, nowIso());
      return secret;
    },
  };
}
export type OutboxRepo = ReturnType<typeof outboxRepo>;
