import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEvent } from '../contract/runs.ts';
import { outboxRepo } from '../server/store/outbox.ts';
import { checkDestination, isPrivateAddress } from '../server/webhooks/destination.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(env: Record<string, string> = {}, dataDir?: string): Promise<TestServer> {
  const s = await startServer(env, dataDir);
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await s.close();
  });
  const close = s.close;
  s.close = async () => {
    closed = true;
    await close();
  };
  // A short real schedule instead of 5 s, 5 min, …
  s.app.webhooks.retryDelaysMs = [200, 200, 200];
  return s;
}
async function receiver(answers: number[]): Promise<Receiver> {
  const r = await startReceiver(answers);
  cleanups.push(r.close);
  return r;
}

async function secretOf(s: TestServer): Promise<string> {
  const res = await s.api('/api/webhooks/secret');
  expect(res.status).toBe(200);
  return ((await res.json()) as { secret: string }).secret;
}

/** Poll the outbox row until `done` holds on it (the delivery loop runs in the background). */
async function untilRow(s: TestServer, id: string, done: (status: string, attempts: number) => boolean) {
  const repo = outboxRepo(s.app.db);
  for (;;) {
    const row = await repo.get(id);
    if (row && done(row.status, row.attempts)) return row;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const METADATA = '{"customer": "acme", "n": 1, "nested": {"x": [1,2]}}';

describe('webhooks', () => {
  it('creates the secret once and shows it', async () => {
    const s = await server();
    const first = await secretOf(s);
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(await secretOf(s)).toBe(first);
    expect((await fetch(`${s.url}/api/webhooks/secret`)).status).toBe(401);
  });

  it('rotates the secret: deliveries after it verify with the new secret and not the old one', async () => {
    const s = await server();
    const old = await secretOf(s);
    const res = await s.api('/api/webhooks/secret/rotate', { method: 'POST' });
    expect(res.status).toBe(200);
    const { secret } = (await res.json()) as { secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(secret).not.toBe(old);
    expect(await secretOf(s)).toBe(secret);

    const r = await receiver([200]);
    s.app.bus.emit('session.started', {
      session_id: randomUUID(),
      workflow_id: randomUUID(),
      webhook_url: r.url,
      metadata: METADATA,
    });
    const [d] = await r.waitFor(1);
    expect(WebhookEvent.parse(new Webhook(secret).verify(d!.body, d!.headers)).type).toBe('session.started');
    expect(() => new Webhook(old).verify(d!.body, d!.headers)).toThrow();
  });

  it('signs with Standard Webhooks, passes metadata unchanged, retries 500 twice then stops after a 200', async () => {
    const s = await server();
    const r = await receiver([500, 500, 200]);
    const sessionId = randomUUID();
    const workflowId = randomUUID();
    s.app.bus.emit('session.started', {
      session_id: sessionId,
      workflow_id: workflowId,
      webhook_url: r.url,
      metadata: METADATA,
    });
    const got = await r.waitFor(3);
    const wh = new Webhook(await secretOf(s));
    for (const d of got) {
      const event = WebhookEvent.parse(wh.verify(d.body, d.headers));
      expect(event).toMatchObject({
        type: 'session.started',
        data: { session_id: sessionId, workflow_id: workflowId, metadata: METADATA },
      });
    }
    // The same message each time (one webhook-id), each attempt signed afresh.
    expect(new Set(got.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const row = await untilRow(s, got[0]!.headers['webhook-id']!, (st) => st === 'delivered');
    expect(row.attempts).toBe(3);
    // Longer than the whole retry schedule: no fourth delivery after the 200.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(r.received).toHaveLength(3);
  });

  it('a tampered body fails verification', async () => {
    const s = await server();
    const r = await receiver([200]);
    s.app.bus.emit('session.ended', {
      session_id: randomUUID(),
      workflow_id: randomUUID(),
      reason: 'stopped',
      webhook_url: r.url,
    });
    const [d] = await r.waitFor(1);
    const wh = new Webhook(await secretOf(s));
    expect(WebhookEvent.parse(wh.verify(d!.body, d!.headers))).toMatchObject({
      type: 'session.ended',
      data: { outcome: 'stopped', metadata: null },
    });
    expect(() => wh.verify(d!.body.replace('stopped', 'crashed'), d!.headers)).toThrow();
  });

  it('delivers after a restart between attempts', async () => {
    const s1 = await server();
    const r = await receiver([500, 200]);
    // Long enough that s1 is seen between its attempts and closed before the retry is due, however loaded the host.
    s1.app.webhooks.retryDelaysMs = [10_000];
    s1.app.bus.emit('run.started', {
      session_id: randomUUID(),
      workflow_id: randomUUID(),
      total_actions: 3,
      webhook_url: r.url,
      metadata: METADATA,
    });
    const [first] = await r.waitFor(1);
    const id = first!.headers['webhook-id']!;
    await untilRow(s1, id, (st, attempts) => st === 'pending' && attempts === 1);
    const secret = await secretOf(s1);
    await s1.close();

    const s2 = await server({}, s1.dataDir);
    const got = await r.waitFor(2);
    expect(got[1]!.headers['webhook-id']).toBe(id);
    expect(new Webhook(secret).verify(got[1]!.body, got[1]!.headers)).toMatchObject({
      type: 'run.started',
      data: { metadata: METADATA },
    });
    expect((await untilRow(s2, id, (st) => st === 'delivered')).attempts).toBe(2);
  });

  it('retries after a timeout', async () => {
    const s = await server();
    // The first attempt gets no answer and times out; the second is answered, within this even on a loaded host.
    s.app.webhooks.timeoutMs = 10_000;
    const r = await receiver([0, 200]);
    s.app.bus.emit('session.started', { session_id: randomUUID(), workflow_id: randomUUID(), webhook_url: r.url });
    const got = await r.waitFor(2);
    const row = await untilRow(s, got[0]!.headers['webhook-id']!, (st) => st === 'delivered');
    expect(row.attempts).toBe(2);
  });

  it('410 Gone disables the destination', async () => {
    const s = await server();
    const r = await receiver([410]);
    s.app.bus.emit('session.started', { session_id: randomUUID(), workflow_id: randomUUID(), webhook_url: r.url });
    const [d] = await r.waitFor(1);
    const row = await untilRow(s, d!.headers['webhook-id']!, (st) => st !== 'pending');
    expect(row.status).toBe('disabled');
    const later = await s.app.webhooks.enqueue(r.url, {
      type: 'run.started',
      timestamp: new Date().toISOString(),
      data: { session_id: randomUUID(), workflow_id: randomUUID(), metadata: null },
    });
    expect(later.status).toBe('disabled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
  });
});

describe('webhook destinations (SSRF)', () => {
  it('classifies private, loopback and link-local addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses names and literals that resolve to private addresses', async () => {
    await expect(checkDestination('http://localhost:9/x', false)).rejects.toThrow(/private, loopback or link-local/);
    await expect(checkDestination('http://[::1]:9/x', false)).rejects.toThrow(/private/);
    await expect(checkDestination('ftp://example.org/x', false)).rejects.toThrow(/http or https/);
    expect((await checkDestination('http://127.0.0.1:9/x', true)).address).toBe('127.0.0.1');
  });

  it('without WEBHOOK_ALLOW_PRIVATE, a loopback destination is refused when queued and nothing is sent', async () => {
    const s = await server({ WEBHOOK_ALLOW_PRIVATE: '0' });
    const r = await receiver([200]);
    const row = await s.app.webhooks.enqueue(r.url, {
      type: 'run.started',
      timestamp: new Date().toISOString(),
      data: { session_id: randomUUID(), workflow_id: randomUUID(), metadata: null },
    });
    expect(row.status).toBe('refused');
    expect(row.last_error).toMatch(/loopback/);
  });

  it('checks again at delivery (a name that now resolves to a private address is not called)', async () => {
    const s = await server({ WEBHOOK_ALLOW_PRIVATE: '0' });
    const r = await receiver([200]);
    // As if the URL had passed the check when queued and its DNS changed since.
    const row = await outboxRepo(s.app.db).insert({
      url: r.url,
      type: 'run.started',
      payload: '{}',
      status: 'pending',
    });
    s.app.webhooks.kick();
    const after = await untilRow(s, row.id, (_st, attempts) => attempts >= 1);
    expect(after.last_error).toMatch(/loopback/);
    expect(r.received).toHaveLength(0);
  });
});
