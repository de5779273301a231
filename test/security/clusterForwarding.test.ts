import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../contract/errors.ts';
import { sessionScopedRoutes } from '../../server/http/forwarding/forward.ts';
import { signToken } from '../../server/secrets/signedTokens.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

/**
 * Forwarding to a session's node, against a spy owner: a plain HTTP server that records exactly
 * what reaches it (method, request target, headers, body, bytes after an upgrade) and answers as a
 * test tells it. No browser: the end-to-end test with two real nodes is cluster.forward.test.ts.
 */

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

type Answer = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;
const defaultAnswer: Answer = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'x-spy': 'owner' }).end(JSON.stringify({ from: 'owner' }));
};

let node: TestServer;
let spy: http.Server;
let spyUrl: string;
let seen: Seen[] = [];
let upgrades: { url: string; headers: http.IncomingHttpHeaders; head: Buffer; socket: net.Socket }[] = [];
let answer: Answer = defaultAnswer;
/** The owner's upgraded sockets: its server no longer tracks them, so closing it waits on them. */
const tunnels = new Set<net.Socket>();
let owned = new Set<string>();
let ownerUrlCalls: string[] = [];
let ownerBase = () => spyUrl;
/** A listener nothing may ever connect to: a request naming it in Host or in an absolute URL must not reach it. */
let decoy: net.Server;
let decoyConnections = 0;

const key = `test_${randomBytes(16).toString('hex')}`;

beforeAll(async () => {
  spy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body });
      answer(req, res, body);
    });
  });
  // An upgrade: answer 101 and echo every byte (what the client sent after its handshake first).
  spy.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    upgrades.push({ url: req.url!, headers: req.headers, head, socket });
    socket.setNoDelay(true);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\r\n');
    if (head.length) socket.write(head);
    socket.on('data', (d) => socket.write(d));
    // As a WebSocket server does: the peer's end is the end (Node's HTTP sockets allow half-open ones).
    socket.on('end', () => socket.end());
    socket.on('error', () => {});
    tunnels.add(socket);
    socket.once('close', () => tunnels.delete(socket));
  });
  await new Promise<void>((r) => spy.listen(0, '127.0.0.1', r));
  spyUrl = `http://127.0.0.1:${(spy.address() as AddressInfo).port}`;
  decoy = net.createServer((s) => {
    decoyConnections++;
    s.destroy();
  });
  await new Promise<void>((r) => decoy.listen(0, '127.0.0.1', r));

  node = await startServer({ BROWSERDESK_API_KEY: key });
  node.app.cluster.ownerUrl = async (id: string) => {
    ownerUrlCalls.push(id);
    return owned.has(id) ? ownerBase() : null;
  };
});

afterEach(() => {
  seen = [];
  upgrades = [];
  answer = defaultAnswer;
  owned = new Set();
  ownerUrlCalls = [];
  ownerBase = () => spyUrl;
});

afterAll(async () => {
  await node?.close();
  spy?.closeAllConnections();
  for (const socket of tunnels) socket.destroy();
  await new Promise((r) => spy?.close(r));
  await new Promise((r) => decoy?.close(r));
});

/** A session id another node holds. */
function remoteSession(): string {
  const id = randomUUID();
  owned.add(id);
  return id;
}

const decoyPort = () => (decoy.address() as AddressInfo).port;
const nodePort = () => (node.app.server.address() as AddressInfo).port;

/** One raw HTTP/1.1 exchange (what fetch will not send: absolute-form targets, odd Host headers); resolves with the whole answer. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(nodePort(), '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

/** A request with headers fetch refuses to set (Connection, TE, ...); resolves with status, raw headers and body. */
function nodeRequest(
  options: http.RequestOptions & { body?: Buffer | string[] },
): Promise<{ status: number; rawHeaders: string[]; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: nodePort(), agent: false, ...options }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          rawHeaders: res.rawHeaders,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    if (Array.isArray(options.body)) {
      for (const part of options.body) req.write(part);
      req.end();
    } else req.end(options.body);
  });
}

describe('what is passed on', () => {
  it('passes a session route on to the owner as received, and answers with exactly what the owner said', async () => {
    const id = remoteSession();
    answer = (_req, res) => {
      res.writeHead(
        201,
        'Made Up',
        [
          ['X-Owner', 'a'],
          ['x-owner', 'b'],
          ['Set-Cookie', 'a=1'],
          ['Set-Cookie', 'b=2'],
          ['Content-Type', 'application/json'],
        ].flat(),
      );
      res.end('{"from":"owner"}');
    };
    const res = await nodeRequest({
      path: `/api/sessions/${id}?x=1&y=%20`,
      headers: { 'x-api-key': key, 'user-agent': 'ua/1', cookie: 'c=1' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toBe('{"from":"owner"}');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.rawHeaders.filter((_, i) => i % 2 === 0 && /^x-owner$/i.test(res.rawHeaders[i]!)).length).toBe(2);

    expect(seen).toHaveLength(1);
    const got = seen[0]!;
    expect(got.method).toBe('GET');
    expect(got.url).toBe(`/api/sessions/${id}?x=1&y=%20`);
    expect(got.headers['x-api-key']).toBe(key);
    expect(got.headers['user-agent']).toBe('ua/1');
    expect(got.headers.cookie).toBe('c=1');
    expect(got.headers.host).toBe(new URL(spyUrl).host);
    expect(got.headers['x-browserdesk-forwarded']).toBe(node.app.cluster.nodeId);
    expect(ownerUrlCalls).toEqual([id]);
  });

  it('drops hop-by-hop headers both ways, the ones Connection names too', async () => {
    const id = remoteSession();
    answer = (_req, res) => {
      res.writeHead(
        200,
        [
          'Connection',
          'x-resp-hop',
          'X-Resp-Hop',
          '1',
          'Keep-Alive',
          'timeout=1',
          'Trailer',
          'x-t',
          'X-End',
          'kept',
        ].flat(),
      );
      res.end('ok');
    };
    const res = await nodeRequest({
      path: `/api/sessions/${id}`,
      headers: {
        'x-api-key': key,
        connection: 'keep-alive, x-req-hop',
        'x-req-hop': '1',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'proxy-authorization': 'Basic eA==',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-resp-hop']).toBeUndefined();
    expect(res.headers.trailer).toBeUndefined();
    expect(res.headers['x-end']).toBe('kept');
    const sent = seen[0]!.headers;
    for (const h of ['x-req-hop', 'te', 'proxy-authorization', 'keep-alive']) expect(sent[h], h).toBeUndefined();
    expect(sent['x-api-key']).toBe(key);
  });

  it('passes on the id in the query (run_workflow_status, download_session_files) and streams a large answer', async () => {
    const id = remoteSession();
    const big = randomBytes(3 * 1024 * 1024);
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(big.length) });
      res.end(big);
    };
    const res = await node.api(`/api/download_session_files?session_id=${id}&filename=a.txt`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
    answer = defaultAnswer;
    expect((await node.api(`/api/run_workflow_status?session_id=${id}`)).status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual([
      `/api/download_session_files?session_id=${id}&filename=a.txt`,
      `/api/run_workflow_status?session_id=${id}`,
    ]);
  });

  it('reads the id from a JSON or urlencoded body and sends the body as received, chunked or not', async () => {
    const id = remoteSession();
    const json = `{ "session_id" : "${id}" }`;
    const form = `session_id=${id}`;
    expect(
      (await node.api('/api/pause', { method: 'POST', headers: { 'content-type': 'application/json' }, body: json }))
        .status,
    ).toBe(200);
    expect(
      (
        await node.api('/api/resume_session', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        })
      ).status,
    ).toBe(200);
    const chunked = await nodeRequest({
      method: 'POST',
      path: '/api/close_workflow_session',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: [json.slice(0, 5), json.slice(5)],
    });
    expect(chunked.status).toBe(200);
    expect(seen.map((s) => [s.url, s.body.toString(), s.headers['content-type'], s.headers['content-length']])).toEqual(
      [
        ['/api/pause', json, 'application/json', String(json.length)],
        ['/api/resume_session', form, 'application/x-www-form-urlencoded', String(form.length)],
        ['/api/close_workflow_session', json, 'application/json', String(json.length)],
      ],
    );
  });

  it('answers a body that names no session of another node here (validation included)', async () => {
    remoteSession();
    const local = randomUUID();
    const res = await node.api('/api/editor_interrupt', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: local }),
    });
    expect(res.status).toBe(404);
    const bad = await node.api('/api/editor_interrupt', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: ['x'] }),
    });
    expect(bad.status).toBe(422);
    expect(seen).toHaveLength(0);
    expect(ownerUrlCalls).toEqual([local]);
  });

  it('streams server-sent events as they come, and stops asking the owner when the client goes away', async () => {
    const id = remoteSession();
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let ownerSawClose!: () => void;
    const closedAtOwner = new Promise<void>((r) => (ownerSawClose = r));
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      res.on('close', ownerSawClose);
      void released.then(() => res.write('data: 2\n\n'));
    };
    const ac = new AbortController();
    const res = await node.api(`/api/session/${id}/stream`, { signal: ac.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    // The first event arrives while the owner still holds the second: nothing is buffered.
    expect(decoder.decode((await reader.read()).value)).toBe('data: 1\n\n');
    release();
    expect(decoder.decode((await reader.read()).value)).toBe('data: 2\n\n');
    ac.abort();
    await closedAtOwner;
  });

  it('passes a Range on and the owner’s 206 back (recordings)', async () => {
    const id = remoteSession();
    answer = (req, res) => {
      res.writeHead(206, {
        'content-range': 'bytes 2-5/10',
        'accept-ranges': 'bytes',
        'content-type': 'video/webm',
        'content-length': '4',
      });
      res.end(req.headers.range === 'bytes=2-5' ? 'abcd' : 'xxxx');
    };
    const res = await node.api(`/api/session/${id}/recording`, { headers: { range: 'bytes=2-5' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await res.text()).toBe('abcd');
  });

  it('passes on a signed-token URL (logs_url) that this node has verified, key-less', async () => {
    const id = remoteSession();
    const token = signToken(node.app.urlSigningKey, 'events', id, 60);
    const res = await fetch(`${node.url}/api/session/${id}/events?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(seen[0]!.url).toBe(`/api/session/${id}/events?token=${encodeURIComponent(token)}`);
  });
});

describe('attacks', () => {
  it('never passes on a request without a valid API key: the 401 is the same as for a session of this node, and the owner is never asked', async () => {
    const id = remoteSession();
    const local = randomUUID();
    const bodies = new Set<string>();
    for (const [path, headers] of [
      [`/api/sessions/${id}`, {}],
      [`/api/sessions/${id}`, { 'x-api-key': 'wrong' }],
      [`/api/sessions/${local}`, {}],
      [`/api/session/${id}/events?token=${signToken(node.app.urlSigningKey, 'events', randomUUID(), 60)}`, {}],
      [`/api/session/${id}/events?token=${signToken(node.app.urlSigningKey, 'recording', id, 60)}`, {}],
    ] as const) {
      const res = await fetch(node.url + path, { headers });
      expect(res.status, path).toBe(401);
      bodies.add(((await res.json()) as { error: string }).error);
    }
    expect(bodies).toEqual(new Set([ErrorCode.unauthorized]));
    const pause = await fetch(`${node.url}/api/pause`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_id: id }),
    });
    expect(pause.status).toBe(401);
    expect(seen).toHaveLength(0);
    expect(ownerUrlCalls).toEqual([]);
  });

  it('passes token routes (view and CDP) on unchecked: only the owner holds a session’s tokens, so its 401 is the answer', async () => {
    const id = remoteSession();
    answer = (_req, res) => {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'unauthorized', message: 'Session token missing or invalid' }));
    };
    for (const path of [`/s/${id}/vnc?token=wrong`, `/s/${id}/live`, `/s/${id}/cdp/json/version?token=x`]) {
      const res = await fetch(node.url + path);
      expect(res.status, path).toBe(401);
    }
    expect(seen.map((s) => s.url)).toEqual([
      `/s/${id}/vnc?token=wrong`,
      `/s/${id}/live`,
      `/s/${id}/cdp/json/version?token=x`,
    ]);
  });

  it('answers here, and asks nobody, when the client sends x-browserdesk-forwarded itself', async () => {
    const id = remoteSession();
    const res = await node.api(`/api/sessions/${id}`, { headers: { 'x-browserdesk-forwarded': 'http://127.0.0.1:1' } });
    expect(res.status).toBe(404); // this node's own answer: it has no such session
    const ws = await rawRequest(
      `GET /s/${id}/cdp?token=x HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nx-browserdesk-forwarded: x\r\n\r\n`,
    );
    expect(ws).toMatch(/^HTTP\/1\.1 401 /);
    expect(seen).toHaveLength(0);
    expect(upgrades).toHaveLength(0);
    expect(ownerUrlCalls).toEqual([]);
  });

  it('sends only to the URL the routing gave: never to a Host, X-Forwarded-Host or an absolute request target', async () => {
    const id = remoteSession();
    const evil = `127.0.0.1:${decoyPort()}`;
    const answer1 = await rawRequest(
      `GET http://${evil}/api/sessions/${id} HTTP/1.1\r\nHost: ${evil}\r\nX-Forwarded-Host: ${evil}\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer1).toMatch(/^HTTP\/1\.1 200 /);
    const answer2 = await rawRequest(
      `GET /api/sessions/${id} HTTP/1.1\r\nHost: ${evil}\r\nForwarded: host=${evil}\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer2).toMatch(/^HTTP\/1\.1 200 /);
    expect(seen.map((s) => [s.url, s.headers.host])).toEqual([
      [`/api/sessions/${id}`, new URL(spyUrl).host],
      [`/api/sessions/${id}`, new URL(spyUrl).host],
    ]);
    expect(decoyConnections).toBe(0);
  });

  it('finds the session in any spelling the router accepts, and passes the spelling on unchanged', async () => {
    const id = remoteSession();
    const spellings = [
      `/api/%73essions/${id}`,
      `/api/sessions/${id.replace(/-/g, '%2D')}`,
      `/api/sessions/${id.toUpperCase()}`,
      `/api/session/${id}/status?x=%2e%2e/`,
    ];
    owned.add(id.toUpperCase());
    for (const path of spellings) expect((await node.api(path)).status, path).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(spellings);
  });

  it('passes on nothing the router did not match as a session route (double slashes, dot segments, encoded slashes, non-ids)', async () => {
    const id = remoteSession();
    for (const path of [
      `/api/sessions//${id}`,
      `//api/sessions/${id}`,
      `/api/sessions/x/../${id}`,
      `/api/sessions/${id}/..`,
      `/api/sessions/${id}%2Fviews`,
      `/api/sessions/${id}x`,
      `/s/${id}%2Fvnc`,
      `/api/sessions/.%2e/sessions/${id}`,
    ]) {
      // Not fetch: it would resolve the dot segments before sending.
      const res = await nodeRequest({ path, headers: { 'x-api-key': key } });
      expect([401, 404, 422], path).toContain(res.status);
    }
    expect(seen).toHaveLength(0);
    expect(ownerUrlCalls).toEqual([]);
  });

  it('answers here when the routing names a URL it will not send to', async () => {
    const id = remoteSession();
    for (const base of [
      'file:///etc',
      'http://user:pw@127.0.0.1:1',
      'ftp://127.0.0.1',
      'not a url',
      `${spyUrl}/?q=1`,
    ]) {
      ownerBase = () => base;
      expect((await node.api(`/api/sessions/${id}`)).status, base).toBe(404);
    }
    expect(seen).toHaveLength(0);
  });
});

describe('an owner that cannot be reached', () => {
  it('answers 503 node_unreachable in the error shape, to HTTP and to a WebSocket handshake', async () => {
    const id = remoteSession();
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    ownerBase = () => `http://127.0.0.1:${port}`;
    for (const res of [
      await node.api(`/api/sessions/${id}`),
      await node.api(`/api/session/${id}/stream`),
      await node.api('/api/pause', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: id }),
      }),
    ]) {
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error).toBe(ErrorCode.nodeUnreachable);
      expect(body.message).toMatch(/node/);
      expect(body.message).not.toContain(String(port));
    }
    const ws = await rawRequest(
      `GET /s/${id}/vnc?token=x HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    expect(ws).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(ws.slice(ws.indexOf('\r\n\r\n') + 4)).error).toBe(ErrorCode.nodeUnreachable);
  });
});

describe('WebSockets', () => {
  interface Tunnel {
    socket: net.Socket;
    /** The next bytes that came after the 101 (in arrival order, none lost between reads). */
    read(): Promise<Buffer>;
  }

  /** Open an upgrade on `port` (the node, or the owner directly); resolves once the 101 has come. */
  function openTunnel(port: number, path: string, extra = ''): Promise<Tunnel> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.setNoDelay(true);
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n${extra}`,
        );
      });
      let buf = Buffer.alloc(0);
      let upgraded = false;
      const queue: Buffer[] = [];
      let waiting: ((b: Buffer) => void) | undefined;
      const deliver = (b: Buffer) => {
        if (!b.length) return;
        if (waiting) {
          const w = waiting;
          waiting = undefined;
          w(b);
        } else queue.push(b);
      };
      const read = () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise<Buffer>((r) => (waiting = r)));
      socket.on('data', (d: Buffer) => {
        if (upgraded) return deliver(d);
        buf = Buffer.concat([buf, d]);
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buf.subarray(0, 12).toString().startsWith('HTTP/1.1 101')) return reject(new Error(buf.toString()));
        upgraded = true;
        resolve({ socket, read });
        deliver(buf.subarray(end + 4));
      });
      socket.on('error', reject);
    });
  }

  it('tunnels the handshake as sent (path, headers, bytes sent before the 101) and then every byte both ways', async () => {
    const id = remoteSession();
    const path = `/s/${id}/cdp?token=a%2Bb&x=1`;
    const tunnel = await openTunnel(nodePort(), path, 'early-bytes');
    expect(upgrades).toHaveLength(1);
    expect(upgrades[0]!.url).toBe(path);
    expect(upgrades[0]!.head.toString()).toBe('early-bytes');
    expect(upgrades[0]!.headers['x-browserdesk-forwarded']).toBe(node.app.cluster.nodeId);
    expect(upgrades[0]!.headers['sec-websocket-key']).toBe('dGhlIHNhbXBsZSBub25jZQ==');
    expect(upgrades[0]!.headers.host).toBe(new URL(spyUrl).host);
    expect((await tunnel.read()).toString()).toBe('early-bytes');
    tunnel.socket.write(Buffer.from([0, 1, 2, 255]));
    expect([...(await tunnel.read())]).toEqual([0, 1, 2, 255]);
    // The client going away closes the owner's end.
    const ownerClosed = new Promise((r) => upgrades[0]!.socket.once('close', r));
    tunnel.socket.destroy();
    await ownerClosed;
  });

  it('closes the client when the owner closes its end', async () => {
    const id = remoteSession();
    const tunnel = await openTunnel(nodePort(), `/s/${id}/vnc?token=x`);
    const clientClosed = new Promise((r) => tunnel.socket.once('close', r));
    upgrades[0]!.socket.destroy();
    await clientClosed;
  });
});

describe('the route table', () => {
  it('marks every route that names a session, and no other', () => {
    const scoped = new Set(sessionScopedRoutes(node.app).map((r) => `${r.method} ${r.url}`));
    const namesSession = (url: string) =>
      /^\/s\/:id\//.test(url) ||
      /^\/api\/(sessions?|retrieve_session_replay|retrieve_session_logs|get_session_store)\/:id(\/|$)/.test(url);
    const bySession = [
      '/api/pause',
      '/api/resume_session',
      '/api/editor_interrupt',
      '/api/interrupt',
      '/api/close_workflow_session',
      '/api/download_session_files',
      '/api/run_workflow_status',
    ];
    for (const r of node.app.routeTable()) {
      const expected = namesSession(r.url) || bySession.includes(r.url);
      expect(scoped.has(`${r.method} ${r.url}`), `${r.method} ${r.url}`).toBe(expected);
    }
  });
});

describe('closing the node', () => {
  it('cuts forwarded streams and tunnels, so close() does not wait on them', async () => {
    const other = await startServer({ BROWSERDESK_API_KEY: key });
    const id = remoteSession();
    other.app.cluster.ownerUrl = async (x: string) => (x === id ? spyUrl : null);
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    };
    const stream = await other.api(`/api/session/${id}/stream`);
    const reader = stream.body!.getReader();
    await reader.read();
    const port = (other.app.server.address() as AddressInfo).port;
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(
        `GET /s/${id}/cdp HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      ),
    );
    socket.on('error', () => {});
    await new Promise((r) => socket.once('data', r));
    const socketClosed = new Promise((r) => socket.once('close', r));
    // Were they not cut, close() would wait on them past the hook's time limit.
    await other.close();
    await socketClosed;
    await expect(reader.read()).rejects.toThrow();
  });
});
