import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';

/**
 * A draining node places nothing itself: a create it is sent goes to a node with room. Were the
 * drain to end (and the node to close) while that node is still answering, the client would hear
 * a reset for a create the other node carries out, send it again, and get two. Two real servers; A
 * is told B has room by overriding its routing, which the membership fills in a real cluster, and
 * A closes when its drain ends, as main.ts does.
 */
const shared = {
  BROWSERDESK_API_KEY: `test_${randomBytes(16).toString('hex')}`,
  BROWSERDESK_SECRET_KEY: randomBytes(32).toString('hex'),
};
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const connectionsOf = (server: TestServer) =>
  new Promise<number>((resolve, reject) =>
    server.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  );

describe('a node that drains while a create it passed on is under way', () => {
  it('answers that create before it closes, with the session the other node started', async () => {
    // A live session keeps A's drain open while the create is sent.
    const held = CreateWorkflowSessionResponse.parse(
      await (await postJson(a, '/api/create_workflow_session', { workflow_name: 'held' })).json(),
    );
    const bUrl = b.url;
    a.app.cluster.nodeWithRoom = async () => bUrl;
    a.app.drain.begin();
    let closed = false;
    const closing = a.app.drain.finished.then(async () => {
      await a.close();
      closed = true;
    });

    // The create goes out with part of its body, so it is under way while A's session ends.
    const req = http.request(`${a.url}/api/create_workflow_session`, {
      method: 'POST',
      agent: false,
      headers: {
        'x-api-key': shared.BROWSERDESK_API_KEY,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      },
    });
    const answer = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.write('{"workflow_name":');
    await waitForAsync('A passed the create to B', async () => (await connectionsOf(b)) > 0 || undefined, 15_000);

    expect((await a.api(`/api/sessions/${held.session_id}`, { method: 'DELETE' })).status).toBe(200);
    // Past several of the drain's looks (every 250 ms): before the fix it had ended and A had closed by now.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(closed).toBe(false);
    req.end('"passed on while draining"}');

    const got = await answer;
    expect(got).toMatchObject({ status: 200 });
    const created = CreateWorkflowSessionResponse.parse(JSON.parse((got as { body: string }).body));
    expect((await b.api(`/api/sessions/${created.session_id}`)).status).toBe(200);
    // Answered, A's drain ends and it closes.
    await closing;
    expect(closed).toBe(true);
    expect((await b.api(`/api/sessions/${created.session_id}`, { method: 'DELETE' })).status).toBe(200);
  });
});
