import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { PrivateCdpEndpoint } from '../../server/sessions/cdp/privateEndpoint.ts';
import type { CdpClient } from '../../server/sessions/cdp/client.ts';
import { cdpOverSocket } from '../helpers/cdpSocket.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';

/**
 * The road the agent tools and MCP take to a session's browser (sessions/cdp/privateEndpoint.ts):
 * a Unix socket that skips the HTTP port's key check, so it must be unreachable to everyone but
 * the service itself, open one channel per ticket, and hold that channel to the session's policy.
 */
let server: TestServer;
let endpoint: PrivateCdpEndpoint;
const clients: CdpClient[] = [];

beforeAll(async () => {
  server = await startServer({ RECORD_SESSIONS: 'off' });
  endpoint = new PrivateCdpEndpoint();
});
afterAll(async () => {
  for (const c of clients) c.close();
  await endpoint?.close();
  await server?.discard();
});

async function liveSession() {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'private endpoint attacks' });
  expect(res.status).toBe(200);
  const { session_id } = CreateWorkflowSessionResponse.parse(await res.json());
  return server.app.sessions.get(session_id)!;
}

const socketOf = (url: string) => /^ws\+unix:\/\/(.+):\/[\w-]+$/.exec(url)![1]!;

/** A CDP client on the URL, or the error the connection met. */
async function open(url: string): Promise<CdpClient | Error> {
  const ws = new WebSocket(url);
  const opened = await new Promise<Error | null>((resolve) => {
    ws.once('open', () => resolve(null));
    ws.once('error', (err) => resolve(err));
  });
  if (opened) return opened;
  const client = await cdpOverSocket(ws);
  clients.push(client);
  return client;
}

describe("the agent tools' private CDP endpoint", () => {
  it("is a Unix socket in a folder only the service's user enters: a session's own user cannot connect", async () => {
    const live = await liveSession();
    expect(live.user, 'this attack needs the service to run as root with session users').not.toBeNull();
    const url = await endpoint.url(live.hub);
    expect(url.startsWith('ws+unix://')).toBe(true); // nothing listens on TCP
    const socket = socketOf(url);
    const folder = fs.statSync(path.dirname(socket));
    expect([folder.mode & 0o777, folder.uid]).toEqual([0o700, process.getuid!()]);
    expect(fs.statSync(socket).mode & 0o777).toBe(0o600);

    // What a process of the session (its uid and gid) meets when it tries the socket.
    const attempt = spawnSync(
      process.execPath,
      [
        '-e',
        `require('net').connect(${JSON.stringify(socket)})` +
          `.on('connect', () => { console.log('connected'); process.exit(0); })` +
          `.on('error', (e) => { console.log(e.code); process.exit(0); })`,
      ],
      { uid: live.user!.uid, gid: live.user!.gid, cwd: '/', encoding: 'utf8', env: { PATH: process.env.PATH } },
    );
    expect(attempt.stdout.trim()).toBe('EACCES');
  });

  it('opens one channel per ticket, once, and nothing for a ticket it did not give', async () => {
    const live = await liveSession();
    const url = await endpoint.url(live.hub);
    const first = await open(url);
    if (first instanceof Error) throw first;
    const version = await first.send<{ product: string }>('Browser.getVersion');
    expect(version.product).toMatch(/Chrome/);

    expect(await open(url)).toBeInstanceOf(Error); // the same ticket again
    expect(await open(url.replace(/:\/[\w-]+$/, ':/not-a-ticket'))).toBeInstanceOf(Error);
    expect(await open(url.replace(/:\/[\w-]+$/, ':/'))).toBeInstanceOf(Error);
  });

  it("holds its channel to the session's CDP policy, as every client is", async () => {
    const live = await liveSession();
    const client = await open(await endpoint.url(live.hub));
    if (client instanceof Error) throw client;
    await expect(client.send('Target.exposeDevToolsProtocol', { targetId: 'x' })).rejects.toThrow(
      /not available on Browserdesk sessions/,
    );
  });

  it('ends its channels and removes its folder on close', async () => {
    const own = new PrivateCdpEndpoint();
    const live = await liveSession();
    const url = await own.url(live.hub);
    const client = await open(url);
    if (client instanceof Error) throw client;
    await own.close();
    expect(fs.existsSync(path.dirname(socketOf(url)))).toBe(false);
    await expect(client.send('Browser.getVersion')).rejects.toThrow();
  });
});
