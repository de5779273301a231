import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Log } from '../log.ts';
import type { WebhookEvent } from '../../contract/runs.ts';
import type { PageKey } from '../domain/pages.ts';
import type { OutboxRepo, OutboxRow, OutboxStatus } from '../store/outbox.ts';
import { checkDestination, DestinationRefused } from './destination.ts';
import { postOnce } from './deliver.ts';

/**
 * X-Simplex-Signature: hex HMAC-SHA256 of the raw body, keyed with the secret exactly as the
 * dashboard shows it (`whsec_…`, as text), which is what `verifySimplexWebhook(body, headers,
 * secret)` computes. No timestamp is signed: the Standard Webhooks headers beside it carry the
 * replay protection for receivers that check them.
 */
export function simplexSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/**
 * Delay before each retry: Svix's schedule, about a day in all, so a receiver down for hours still
 * gets the message; after the last one the message is failed.
 */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface DispatcherOptions {
  allowPrivate: boolean;
  retryDelaysMs?: number[];
  timeoutMs?: number;
  log: Log;
}

/** Longest sleep between looks at the outbox, so rows written by another process are not missed for long. */
const MAX_IDLE_MS = 30_000;
const BATCH = 20;
/** A claim outlasts the attempt's own timeout by this much. */
const CLAIM_MARGIN_MS = 5_000;

/**
 * The webhook outbox's delivery loop. Events are written to the store first and sent from there, so
 * a restart loses nothing: pending rows are picked up when the loop starts. Each attempt is made by
 * one node (the row is claimed for it, outboxRepo.claimDue). At-least-once: a node that dies
 * mid-attempt leaves the row to another once its claim runs out, and the webhook-id is stable
 * across attempts, so receivers can drop duplicates.
 */
export class WebhookDispatcher {
  retryDelaysMs: number[];
  timeoutMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = true;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Serialises enqueues so events reach the outbox in the order they happened. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly repo: OutboxRepo,
    private readonly options: DispatcherOptions,
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  secret(): Promise<string> {
    return this.repo.secret();
  }

  /** Replace the secret; attempts read it each time, so queued retries are signed with the new one too. */
  rotateSecret(): Promise<string> {
    return this.repo.rotateSecret();
  }

  /** The outbox as Settings' Deliveries lists it: newest first, a page after `before`. */
  recent(limit: number, before: PageKey | undefined, status: OutboxStatus | undefined): Promise<OutboxRow[]> {
    return this.repo.recent(limit, before, status);
  }

  delivery(id: string): Promise<OutboxRow | undefined> {
    return this.repo.get(id);
  }

  /** Queue one event for one destination; a refused or 410-disabled destination is recorded, not sent. */
  enqueue(url: string, event: WebhookEvent): Promise<OutboxRow> {
    const next = this.queue.then(async () => {
      const payload = JSON.stringify(event);
      if (await this.repo.isDisabled(url)) {
        return this.repo.insert({
          url,
          type: event.type,
          payload,
          status: 'disabled',
          lastError: 'destination answered 410 Gone earlier',
        });
      }
      try {
        await checkDestination(url, this.options.allowPrivate);
      } catch (err) {
        if (!(err instanceof DestinationRefused)) throw err;
        this.options.log.warn({ type: event.type }, `webhook refused: ${err.message}`);
        return this.repo.insert({ url, type: event.type, payload, status: 'refused', lastError: err.message });
      }
      const row = await this.repo.insert({ url, type: event.type, payload, status: 'pending' });
      this.kick();
      return row;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * One attempt by hand (Settings' Retry) of a failed, disabled (410 Gone) or refused delivery: now, by this node, to the
   * URL the row was queued for, through the same destination check and signing as every attempt.
   * Its outcome is final (delivered, failed, disabled): no schedule follows. Resolves to the row
   * after the attempt (`sent`), the row as it is for one in another state (`notRetryable`), or
   * undefined for no such row.
   */
  async retry(id: string): Promise<{ sent: OutboxRow } | { notRetryable: OutboxRow } | undefined> {
    const row = await this.repo.claimForRetry(id, Date.now() + this.timeoutMs + CLAIM_MARGIN_MS);
    if (!row) {
      const as = await this.repo.get(id);
      return as && { notRetryable: as };
    }
    const attempt = this.attempt(row, { final: true }).finally(() => this.inFlight.delete(row.id));
    this.inFlight.set(row.id, attempt);
    await attempt;
    const sent = await this.repo.get(id);
    return sent && { sent };
  }

  start(): void {
    this.stopped = false;
    this.kick();
  }

  /** Stop looking for work and wait for attempts in flight (each bounded by timeoutMs). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.queue;
    await Promise.all(this.inFlight.values());
  }

  /** Look at the outbox now. */
  kick(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = true;
    try {
      // Claimed for longer than an attempt can take, so no other node sends it meanwhile.
      const now = Date.now();
      for (const row of await this.repo.claimDue(now, BATCH, now + this.timeoutMs + CLAIM_MARGIN_MS)) {
        if (this.inFlight.has(row.id)) continue;
        const attempt = this.attempt(row).finally(() => {
          this.inFlight.delete(row.id);
          this.kick();
        });
        this.inFlight.set(row.id, attempt);
      }
    } catch (err) {
      this.options.log.error({ err }, 'webhook outbox read failed');
    } finally {
      this.running = false;
    }
    await this.schedule();
  }

  private async schedule(): Promise<void> {
    if (this.stopped) return;
    const next = await this.repo.nextDueAt().catch(() => null);
    if (this.stopped) return;
    const wait = next === null ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, Math.max(0, next - Date.now()));
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => void this.tick(),
      this.inFlight.size && next !== null && next <= Date.now() ? 50 : wait,
    );
    this.timer.unref();
  }

  private async attempt(row: OutboxRow, how: { final: boolean } = { final: false }): Promise<void> {
    const attempts = row.attempts + 1;
    let result;
    try {
      // Again at delivery: the name may resolve elsewhere now (DNS rebinding).
      const dest = await checkDestination(row.url, this.options.allowPrivate);
      const timestamp = new Date();
      const secret = await this.repo.secret();
      const headers = {
        'webhook-id': row.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(row.id, timestamp, row.payload),
        // Simplex's clients verify this one: the body alone, under the secret as the same text.
        'x-simplex-signature': simplexSignature(secret, row.payload),
      };
      result = await postOnce(dest, row.payload, headers, this.timeoutMs);
    } catch (err) {
      result = {
        ok: false as const,
        status: null,
        error: err instanceof DestinationRefused ? err.message : 'delivery failed',
      };
    }
    try {
      if (this.stopped && !result.ok) {
        // Shutting down: give the row back as it was, for the next start (of any node) to retry.
        await this.repo.release(row.id);
      } else if (result.ok) {
        await this.repo.delivered(row.id, result.status, attempts);
        // A destination that said 410 Gone and then took a delivery sent by hand is back: later events go to it.
        if (how.final) await this.repo.enable(row.url);
      } else if (result.status === 410) {
        await this.repo.disable(row.url, row.id, attempts);
        this.options.log.warn({ id: row.id }, 'webhook destination answered 410 Gone; it is disabled');
      } else {
        const delay = how.final ? undefined : this.retryDelaysMs[attempts - 1];
        await this.repo.attemptFailed(
          row.id,
          attempts,
          result.status,
          result.error,
          delay === undefined ? null : Date.now() + delay,
        );
      }
    } catch (err) {
      this.options.log.error({ err }, 'webhook outbox write failed');
    }
  }
}
