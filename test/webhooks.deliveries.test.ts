import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../contract/runs.ts';
import {
  WebhookDeliveriesPage,
  WebhookDelivery,
  WebhookDeliveryDetail,
  type WebhookDeliveryStatus,
} from '../contract/webhookDeliveries.ts';
import { simplexSignature } from '../server/webhooks/dispatcher.ts';
import { receiverPool } from './fixtures/webhookReceiver.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

// GET /api/webhooks/deliveries[/{id}] and POST …/{id}/retry against a real receiver, on the store
// of the pass (SQLite, or Postgres with BROWSERDESK_TEST_DB=postgres).
let server: TestServer;
const receivers = receiverPool();
beforeAll(async () => {
  server = await startServer();
  // A short real schedule: one retry, then the delivery has failed.
  server.app.webhooks.retryDelaysMs = [100];
});
afterAll(async () => {
  await closeLeavingNothing(server);
  await receivers.closeAll();
});

const receiver = (answers: number[]) => receivers.start(answers);

const event = (): WebhookEvent => ({
  type: 'run.started',
  timestamp: new Date().toISOString(),
  data: { session_id: randomUUID(), workflow_id: randomUUID(), metadata: '{"order":"A-17"}' },
});

async function delivery(id: string): Promise<WebhookDeliveryDetail> {
  const res = await server.api(`/api/webhooks/deliveries/${id}`);
  expect(res.status).toBe(200);
  return WebhookDeliveryDetail.strict().parse(await res.json());
}

/** Poll the API until the delivery reaches `status` (the delivery loop runs in the background). */
async function until(id: string, status: WebhookDeliveryStatus): Promise<WebhookDeliveryDetail> {
  for (;;) {
    const d = await delivery(id);
    if (d.status === status) return d;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function list(query = ''): Promise<WebhookDeliveriesPage> {
  const res = await server.api(`/api/webhooks/deliveries${query}`);
  expect(res.status).toBe(200);
  return WebhookDeliveriesPage.parse(await res.json());
}

const retry = (id: string) => server.api(`/api/webhooks/deliveries/${id}/retry`, { method: 'POST' });

describe('webhook deliveries', () => {
  it('lists a failed delivery with its answers, and Retry sends it again, signed, to the same destination', async () => {
    const r = await receiver([500, 503, 200]);
    const queued = await server.app.webhooks.enqueue(r.url, event());
    const failed = await until(queued.id, 'failed');
    expect(failed).toMatchObject({
      id: queued.id,
      event: 'run.started',
      url: r.url,
      response_status: 503,
      error: 'destination answered 503',
      attempts: 2,
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(Date.parse(failed.last_attempt_at!)).toBeGreaterThanOrEqual(Date.parse(failed.created_at));
    expect(failed.body).toBe(r.received[0]!.body);

    // The list has it, without its body.
    const listed = (await list('?status=failed')).items.find((d) => d.id === queued.id);
    expect(listed && WebhookDelivery.strict().parse(listed)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(listed).not.toHaveProperty('body');

    const res = await retry(queued.id);
    expect(res.status).toBe(200);
    const after = WebhookDelivery.parse(await res.json());
    expect(after).toMatchObject({ status: 'delivered', response_status: 200, error: null, attempts: 3 });
    expect(after.delivered_at).toBe(after.last_attempt_at);
    expect(Date.parse(after.last_attempt_at!)).toBeGreaterThanOrEqual(Date.parse(failed.last_attempt_at!));

    // The retry is the same message (one webhook-id), signed afresh with the server's secret.
    expect(r.received).toHaveLength(3);
    const sent = r.received[2]!;
    expect(sent.headers['webhook-id']).toBe(queued.id);
    const secret = ((await (await server.api('/api/webhooks/secret')).json()) as { secret: string }).secret;
    expect(new Webhook(secret).verify(sent.body, sent.headers)).toMatchObject({
      type: 'run.started',
      data: { metadata: '{"order":"A-17"}' },
    });
    expect(sent.headers['x-simplex-signature']).toBe(simplexSignature(secret, sent.body));
    expect(() => new Webhook(secret).verify(sent.body.replace('A-17', 'A-18'), sent.headers)).toThrow();
  });

  it('a retry that fails again is failed at once (no schedule follows a retry by hand)', async () => {
    const r = await receiver([500]);
    const queued = await server.app.webhooks.enqueue(r.url, event());
    await until(queued.id, 'failed');
    const after = WebhookDelivery.parse(await (await retry(queued.id)).json());
    expect(after).toMatchObject({ status: 'failed', response_status: 500, attempts: 3, next_attempt_at: null });
    // Longer than the schedule's delay: nothing more is sent on its own.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(r.received).toHaveLength(3);
  });

  it('a destination gone with 410 takes a retry by hand, and then gets later events again', async () => {
    const r = await receiver([410, 200]);
    const gone = await server.app.webhooks.enqueue(r.url, event());
    expect(await until(gone.id, 'disabled')).toMatchObject({ response_status: 410, attempts: 1 });
    // Meanwhile nothing more is sent there.
    expect((await server.app.webhooks.enqueue(r.url, event())).status).toBe('disabled');

    const after = WebhookDelivery.parse(await (await retry(gone.id)).json());
    expect(after).toMatchObject({ status: 'delivered', response_status: 200, attempts: 2 });
    const later = await server.app.webhooks.enqueue(r.url, event());
    expect(later.status).toBe('pending');
    await until(later.id, 'delivered');
    expect(r.received.map((d) => d.headers['webhook-id'])).toEqual([gone.id, gone.id, later.id]);
  });

  it('retries only failed, disabled and refused deliveries: a delivered or pending one is a 409 and is not sent', async () => {
    const ok = await receiver([200]);
    const delivered = await server.app.webhooks.enqueue(ok.url, event());
    await until(delivered.id, 'delivered');
    const res = await retry(delivered.id);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Only a failed, disabled or refused delivery can be retried; this one is delivered',
    );
    expect(ok.received).toHaveLength(1);

    // Never answers: pending for the whole attempt's timeout.
    const slow = await receiver([0]);
    const pending = await server.app.webhooks.enqueue(slow.url, event());
    await slow.waitFor(1);
    const listed = (await list('?status=pending')).items.find((d) => d.id === pending.id);
    expect(listed?.next_attempt_at).not.toBeNull();
    expect((await retry(pending.id)).status).toBe(409);
    expect(slow.received).toHaveLength(1);
    // Gone now: its attempt ends at once instead of at the timeout.
    await slow.close();
  });

  it('pages newest first with a cursor, each delivery once', async () => {
    const r = await receiver([200]);
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await server.app.webhooks.enqueue(r.url, event())).id);
      // Queued in distinct milliseconds, so newest first is this order (ties would go by id).
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await list('?limit=2');
    expect(first.items.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.next_cursor).not.toBeNull();
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    expect(second.items[0]!.id).toBe(ids[0]);
    const seen = [...first.items, ...second.items].map((d) => d.id);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("masks a destination's user and password, and answers no secret or header", async () => {
    const r = await receiver([200]);
    const withLogin = r.url.replace('http://', 'http://hook-user:hunter2-password@');
    const queued = await server.app.webhooks.enqueue(withLogin, event());
    const d = await until(queued.id, 'delivered');
    expect(d.url).toBe(r.url.replace('http://', 'http://***@'));
    // Sent with it all the same, as Basic authorization.
    expect(r.received[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('hook-user:hunter2-password').toString('base64')}`,
    );
    const secret = ((await (await server.api('/api/webhooks/secret')).json()) as { secret: string }).secret;
    const answers = [
      await (await server.api(`/api/webhooks/deliveries/${queued.id}`)).text(),
      await (await server.api('/api/webhooks/deliveries?limit=100')).text(),
    ];
    for (const text of answers) {
      for (const hidden of ['hunter2', 'hook-user', secret, secret.slice('whsec_'.length), 'webhook-signature'])
        expect(text).not.toContain(hidden);
    }
  });
});
