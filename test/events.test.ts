import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CORS_ORIGINS: 'http://dash.example' });
});
afterAll(() => server.close());

/** Read SSE text from a fetch body until `predicate` holds on what has arrived. */
async function readUntil(res: Response, predicate: (text: string) => boolean): Promise<string> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!predicate(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text;
}

describe('GET /api/events', () => {
  it('needs the key', async () => {
    expect((await fetch(`${server.url}/api/events`)).status).toBe(401);
  });

  it('relays session and run changes as server-sent events', async () => {
    const res = await server.api('/api/events');
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const id = randomUUID();
    const reading = readUntil(res, (t) => t.includes('run.completed'));
    // The stream is open once the first chunk arrived; emit after a tick.
    setTimeout(() => {
      server.app.bus.emit('session.changed', { session_id: id });
      server.app.bus.emit('run.completed', {
        session_id: id,
        workflow_id: randomUUID(),
        succeeded: true,
        message: 'ok',
        outputs: {},
      });
    }, 50);
    const text = await reading;
    expect(text).toContain(`event: session.changed\ndata: {"type":"session.changed","session_id":"${id}"}`);
    expect(text).toContain(`"type":"run.completed","session_id":"${id}","succeeded":true`);
  });
});

describe('CORS', () => {
  it('allows a configured dashboard origin, with the key header', async () => {
    const res = await fetch(`${server.url}/api/writes`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://dash.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://dash.example');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/x-api-key/);
  });

  it('does not allow other origins', async () => {
    const res = await fetch(`${server.url}/api/healthz`, { headers: { origin: 'http://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
