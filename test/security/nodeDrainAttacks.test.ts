import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrainState } from '../../contract/nodes.ts';
import { startReceiver, type Receiver } from '../fixtures/webhookReceiver.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { closeLeavingNothing } from '../helpers/teardown.ts';

// POST /api/nodes/{id}/drain tried as an attacker would, on a single node: ids that are no node
// (an address the attacker listens on, the cluster's header spoofed, spellings of local, traversal,
// an oversized id) neither drain this node nor make it send a request anywhere. Without a key:
// test/security/routeSpellings.test.ts.
let server: TestServer;
let listener: Receiver;
beforeAll(async () => {
  server = await startServer();
  listener = await startReceiver([200]);
});
afterAll(async () => {
  await listener?.close();
  await closeLeavingNothing(server);
});

const drain = (id: string, headers: Record<string, string> = {}) =>
  server.api(`/api/nodes/${id}/drain`, { method: 'POST', headers });

describe('draining a node', () => {
  it('is refused for every id that is not a live node, sends nothing anywhere, and leaves the node ready', async () => {
    const notNodes = [
      encodeURIComponent(new URL(listener.url).origin),
      encodeURIComponent('http://10.0.0.1:8080'),
      'LOCAL',
      'local%20',
      '%20local',
      'local%00',
      '%2e%2e',
      '..%2Fhealthz',
      encodeURIComponent('local/../local'),
      encodeURIComponent('http://169.254.169.254/latest/meta-data'),
    ];
    for (const id of notNodes) {
      const res = await drain(id);
      expect(res.status, id).toBe(404);
      // Even a request claiming to come from another node is answered here, never passed on.
      expect((await drain(id, { 'x-browserdesk-forwarded': 'http://10.0.0.9:8080' })).status, id).toBe(404);
    }
    expect((await drain('x'.repeat(1001))).status).toBe(422);
    // Other methods are no drain.
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect([404, 405], method).toContain((await server.api('/api/nodes/local/drain', { method })).status);
    }
    expect(listener.received).toEqual([]);
    const ready = await fetch(`${server.url}/api/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, room: true, draining: false });
  });

  it('drains the node itself once: not ready at once, new sessions refused with Retry-After, the same deadline when asked again', async () => {
    const first = await drain('local');
    expect(first.status).toBe(202);
    const state = DrainState.parse(await first.json());
    expect(state.node_id).toBe('local');
    expect(Date.parse(state.deadline) - Date.parse(state.since)).toBe(300_000);

    const again = DrainState.parse(await (await drain('local')).json());
    expect(again.deadline).toBe(state.deadline);

    const ready = await fetch(`${server.url}/api/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, room: false, draining: true });
    const overview = (await (await server.api('/api/overview')).json()) as {
      capacity: { draining: { since: string; deadline: string } | null };
    };
    expect(overview.capacity.draining).toEqual({ since: state.since, deadline: state.deadline });

    const create = await postJson(server, '/api/create_workflow_session', { workflow_name: 'while draining' });
    expect(create.status).toBe(503);
    expect(create.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await create.json()) as { message: string }).message).toMatch(/draining/);
  });
});
