import type { Log } from '../log.ts';
import type pg from 'pg';
import { z } from 'zod';
import { ServerEvent } from '../../contract/events.ts';
import type { Bus } from '../events/bus.ts';
import { onBusServerEvents, type ServerEvents } from '../events/serverEvents.ts';
import type { Sql } from '../store/sql.ts';
import { otherNodesChanges } from '../store/otherNodesChanges.ts';

// Loaded when first used (a cluster's relay only): it is about 150 ms and 15 MB a SQLite server does not need.
const postgres = () => import('pg');

/** The one channel every node of a store publishes on and listens to (channels are per database). */
export const EVENTS_CHANNEL = 'browserdesk_events';

/** A notification's payload: who sent it (to skip our own) and the event, ids only. */
export const RelayedEvent = z.object({ node: z.string().min(1), event: ServerEvent });
export type RelayedEvent = z.infer<typeof RelayedEvent>;

/** Postgres refuses a NOTIFY payload of 8000 bytes or more; ours are ids and a node URL, far below. */
const MAX_PAYLOAD_BYTES = 7_900;
/** Events waiting for the store; past this (Postgres down or hung) new ones are dropped, not piled up in memory. */
const MAX_PENDING = 1_000;
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;
/**
 * How far before the drop the catch-up reads: the other nodes stamp rows with their own clocks, and
 * a notification sent just before the drop may never have been read. A change told twice costs a
 * dashboard one refetch; one never told leaves it stale.
 */
const CATCH_UP_MARGIN_MS = 10_000;
/** Its LISTEN connection's name in pg_stat_activity, for an operator (and the test that cuts it). */
export const RELAY_APPLICATION_NAME = 'browserdesk-event-relay';

export interface EventRelayOptions {
  /** The store's postgres:// URL: the LISTEN connection is its own client, outside the pool. */
  databaseUrl: string;
  nodeId: string;
  /** NOTIFY goes through the store's pool, like any other statement. */
  db: Sql;
  bus: Bus;
  serverEvents: ServerEvents;
  log: Log;
}

/**
 * GET /api/events across a cluster: every node NOTIFYs the ServerEvents of its own bus, and LISTENs
 * for the others' on one dedicated connection (a pooled one would be handed to queries and lose
 * its LISTEN), which it hands to app.serverEvents only, never to the bus: the other node's webhooks
 * and event log already ran there. Notifications sent while the connection is down are missed (a
 * dashboard refetches on its own schedule too); the connection comes back with backoff.
 */
export class EventRelay {
  private client: pg.Client | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private delay = RECONNECT_MIN_MS;
  private stopped = false;
  /** When the LISTEN connection was lost (the first loss, through failed retries); undefined while it listens. */
  private lostAt: number | undefined;
  /** One NOTIFY at a time, so the others read this node's events in the order they happened (run.step indexes). */
  private publishing: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly offBus: () => void;

  constructor(private readonly opts: EventRelayOptions) {
    // From construction, not from listen(): what the node does while starting (orphans ended) is news too.
    this.offBus = onBusServerEvents(opts.bus, (e) => this.publish(e));
  }

  /** Open the LISTEN connection; a first failure is retried in the background, never thrown. */
  async listen(): Promise<void> {
    await this.connect();
  }

  /** Stop publishing (after the last queued NOTIFY is sent) and close the LISTEN connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.offBus();
    clearTimeout(this.retryTimer);
    await this.publishing;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private publish(event: ServerEvent): void {
    const { log, db, nodeId } = this.opts;
    const payload = JSON.stringify({ node: nodeId, event } satisfies RelayedEvent);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      log.warn({ type: event.type }, 'event relay: payload too long for NOTIFY; not sent to the other nodes');
      return;
    }
    if (this.pending >= MAX_PENDING) {
      log.warn({ type: event.type }, 'event relay: too many events waiting for the store; not sent to the other nodes');
      return;
    }
    this.pending++;
    this.publishing = this.publishing.then(async () => {
      try {
        await db.run('SELECT pg_notify(?, ?)', [EVENTS_CHANNEL, payload]);
      } catch (err) {
        log.warn({ err }, 'event relay: NOTIFY failed; the other nodes miss this event');
      } finally {
        this.pending--;
      }
    });
  }

  private async connect(): Promise<void> {
    const { Client } = await postgres();
    if (this.stopped) return;
    // keepAlive: a silently dropped TCP connection is noticed; the timeout: a black hole is not waited on forever.
    const client = new Client({
      connectionString: this.opts.databaseUrl,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      application_name: RELAY_APPLICATION_NAME,
    });
    this.client = client;
    let lost = false;
    const onLost = (err?: unknown) => {
      if (lost) return;
      lost = true;
      client.removeAllListeners('notification');
      if (this.client === client) this.client = undefined;
      client.end().catch(() => {});
      if (this.stopped) return;
      this.lostAt ??= Date.now();
      this.opts.log.warn({ err }, `event relay: LISTEN connection lost; reconnecting in ${this.delay} ms`);
      this.retryTimer = setTimeout(() => void this.connect(), this.delay).unref();
      this.delay = Math.min(this.delay * 2, RECONNECT_MAX_MS);
    };
    // Kept to the end: an 'error' without a listener would take the process down.
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => this.receive(msg));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      this.delay = RECONNECT_MIN_MS;
    } catch (err) {
      onLost(err);
      return;
    }
    // Listening again: whatever was notified from here on arrives; what came before, the store says.
    const lostAt = this.lostAt;
    this.lostAt = undefined;
    if (lostAt !== undefined) await this.catchUp(lostAt - CATCH_UP_MARGIN_MS);
  }

  /**
   * What the other nodes relayed while this node did not listen, read back from the store: a
   * session.changed for each session they started, changed or ended, and a run.completed for each
   * run they ended. A run's single steps are not replayed: its session.changed or run.completed
   * makes a dashboard read the run again, steps included.
   */
  private async catchUp(since: number): Promise<void> {
    try {
      const changed = await otherNodesChanges(this.opts.db, this.opts.nodeId, new Date(since).toISOString());
      for (const c of changed) {
        this.opts.serverEvents.emit(
          c.run_succeeded === null
            ? { type: 'session.changed', session_id: c.session_id }
            : { type: 'run.completed', session_id: c.session_id, succeeded: c.run_succeeded },
        );
      }
      if (changed.length)
        this.opts.log.info(`event relay: caught up ${changed.length} change(s) missed while reconnecting`);
    } catch (err) {
      this.opts.log.warn({ err }, 'event relay: could not catch up what was missed while reconnecting');
    }
  }

  /** Another node's event to this node's streams; anything unreadable, or our own, is dropped. */
  private receive(msg: pg.Notification): void {
    if (msg.channel !== EVENTS_CHANNEL) return;
    let parsed: RelayedEvent | undefined;
    try {
      parsed = RelayedEvent.parse(JSON.parse(msg.payload ?? ''));
    } catch (err) {
      this.opts.log.debug(
        { err, payload: msg.payload?.slice(0, 200) },
        'event relay: dropped a malformed notification',
      );
      return;
    }
    // Our own came to our streams straight from the bus.
    if (parsed.node === this.opts.nodeId) return;
    this.opts.serverEvents.emit(parsed.event);
  }
}
