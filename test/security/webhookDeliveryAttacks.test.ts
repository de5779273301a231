import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../contract/runs.ts';
import { WebhookDelivery } from '../../contract/webhookDeliveries.ts';
import { receiverPool, type Receiver } from '../fixtures/webhookReceiver.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { closeLeavingNothing } from '../helpers/teardown.ts';

// Webhook deliveries' Retry tried as an attacker would: ids that do not exist or are spelled
// oddly, a retry steered to another URL, a retry of a destination the egress check refuses,
// two retries at once, a GET in place of the POST, a wrong key.
let server: TestServer;
let guarded: TestServer;
const receivers = receiverPool();
beforeAll(async () => {
  server = await startServer();
  server.app.webhooks.retryDelaysMs = [];
  // As deployed: private and loopback destinations are refused.
  guarded = await startServer({ WEBHOOK_ALLOW_PRIVATE: '0' });
});
afterAll(async () => {
  await closeLeavingNothing(server);
  await closeLeavingNothing(guarded);
  await receivers.closeAll();
});

const receiver = (answers: number[]) => receivers.start(answers);

const event = (): WebhookEvent => ({
  type: 'session.started',
  timestamp: new Date().toISOString(),
  data: { session_id: randomUUID(), workflow_id: randomUUID(), metadata: null },
});

async function failedDelivery(r: Receiver): Promise<string> {
  const { id } = await server.app.webhooks.enqueue(r.url, event());
  for (;;) {
    const row = await server.app.webhooks.delivery(id);
    if (row?.status === 'failed') return id;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const retryPath = (id: string) => `/api/webhooks/deliveries/${id}/retry`;

describe('retrying a webhook delivery', () => {
  it('of an unknown id is a 404 that sends nothing', async () => {
    const unknown = `msg_${randomUUID().replaceAll('-', '')}`;
    const res = await server.api(retryPath(unknown), { method: 'POST' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe('Webhook delivery not found');
    expect((await server.api(`/api/webhooks/deliveries/${unknown}`)).status).toBe(404);
  });

  it('of an id spelled oddly is refused (422 or 404) and leaves the delivery as it was', async () => {
    const r = await receiver([500]);
    const id = await failedDelivery(r);
    const hex = id.slice('msg_'.length);
    const spellings = [
      `MSG_${hex}`,
      `msg_${hex.toUpperCase()}`,
      `${id}%20`,
      `%20${id}`,
      `${id}%00`,
      `${id}x`,
      id.slice(0, -1),
      `${id}'%20OR%20'1'%3D'1`,
      `msg_%25`,
      `msg_*`,
      `..%2F..%2F${id}`,
      `${id}%2F..`,
      `msg_${'ａ'.repeat(32)}`,
      `msg_${'a'.repeat(300)}`,
      encodeURIComponent(`${id}\n`),
    ];
    for (const spelling of spellings) {
      const res = await server.api(retryPath(spelling), { method: 'POST' });
      expect([404, 422], spelling).toContain(res.status);
      const got = await server.api(`/api/webhooks/deliveries/${spelling}`);
      expect([404, 422], spelling).toContain(got.status);
      expect(await got.text()).not.toContain('"body"');
    }
    expect(await server.app.webhooks.delivery(id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(r.received).toHaveLength(1);
  });

  it('cannot be steered elsewhere: it goes to the destination it was queued for, whatever the request says', async () => {
    const r = await receiver([500, 200]);
    const decoy = await receiver([200]);
    const id = await failedDelivery(r);
    const res = await server.api(`${retryPath(id)}?url=${encodeURIComponent(decoy.url)}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-host': new URL(decoy.url).host,
        forwarded: `host=${new URL(decoy.url).host}`,
      },
      body: JSON.stringify({ url: decoy.url, webhook_url: decoy.url, destination: decoy.url }),
    });
    expect(res.status).toBe(200);
    expect(WebhookDelivery.parse(await res.json())).toMatchObject({ status: 'delivered', url: r.url });
    expect(r.received).toHaveLength(2);
    expect(decoy.received).toHaveLength(0);
  });

  it('passes the egress check again: a loopback destination stays unsent where private ones are refused', async () => {
    const r = await receiver([200]);
    const refused = await guarded.app.webhooks.enqueue(r.url, event());
    expect(refused.status).toBe('refused');
    const res = await guarded.api(retryPath(refused.id), { method: 'POST' });
    expect(res.status).toBe(200);
    const after = WebhookDelivery.parse(await res.json());
    expect(after).toMatchObject({ status: 'failed', response_status: null, attempts: 1 });
    expect(after.error).toMatch(/private, loopback or link-local/);
    expect(r.received).toHaveLength(0);
  });

  it('twice at once sends once: the second is a 409', async () => {
    const r = await receiver([500, 200]);
    const id = await failedDelivery(r);
    const statuses = await Promise.all(
      [0, 1].map(async () => (await server.api(retryPath(id), { method: 'POST' })).status),
    );
    expect(statuses.sort()).toEqual([200, 409]);
    expect(r.received).toHaveLength(2);
  });

  it('is not done by a GET, nor without the key', async () => {
    const r = await receiver([500]);
    const id = await failedDelivery(r);
    expect((await server.api(retryPath(id))).status).toBe(404);
    const refusals: Record<string, string>[] = [
      {},
      { 'x-api-key': `${server.apiKey}x` },
      { authorization: `Bearer ${server.apiKey}` },
    ];
    for (const headers of refusals) {
      const res = await fetch(server.url + retryPath(id), { method: 'POST', headers });
      expect(res.status).toBe(401);
      const read = await fetch(`${server.url}/api/webhooks/deliveries/${id}`, { headers });
      expect(read.status).toBe(401);
      expect(await read.text()).not.toContain('session.started');
    }
    expect(await server.app.webhooks.delivery(id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(r.received).toHaveLength(1);
  });
});
