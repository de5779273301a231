import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';
import { bridgeCdp } from './bridge.ts';
import type { SessionCdp } from './hub.ts';

/** A ticket not used within this long opens nothing: a connect that never came leaves nothing behind. */
const TICKET_TTL_MS = 60_000;

/**
 * A channel of a session's hub as a WebSocket URL, for the service's own Playwright (the agent tools
 * and MCP): Playwright connects only to a URL, and this one goes straight to the hub, under the same
 * CDP policy as every client, without passing through the server's HTTP port, its connection
 * limits, auth and forwarding. The socket is a Unix socket in a folder only the service's user can
 * enter (no session uid reaches it, and nothing listens on TCP), and each URL carries a ticket that
 * opens one channel once.
 */
export class PrivateCdpEndpoint {
  private server: Promise<{ http: http.Server; socketPath: string; dir: string }> | undefined;
  private readonly tickets = new Map<string, SessionCdp>();
  private readonly sockets = new Set<Duplex>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024 * 1024 });

  /** A one-time ws+unix URL of a new channel of `hub`. */
  async url(hub: SessionCdp): Promise<string> {
    // A failed listen is not kept: the next call tries again.
    const { socketPath } = await (this.server ??= this.listen().catch((err: unknown) => {
      this.server = undefined;
      throw err;
    }));
    const ticket = randomBytes(24).toString('base64url');
    this.tickets.set(ticket, hub);
    setTimeout(() => this.tickets.delete(ticket), TICKET_TTL_MS).unref();
    return `ws+unix://${socketPath}:/${ticket}`;
  }

  async close(): Promise<void> {
    const started = this.server;
    this.server = undefined;
    this.tickets.clear();
    for (const socket of this.sockets) socket.destroy();
    for (const client of this.wss.clients) client.terminate();
    if (!started) return;
    const { http: server, dir } = await started;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  }

  private async listen(): Promise<{ http: http.Server; socketPath: string; dir: string }> {
    // mkdtemp makes the folder 0700; under os.tmpdir() the path stays within a socket path's 107 bytes.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browserdesk-cdp-'));
    const socketPath = path.join(dir, 'cdp.sock');
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    fs.chmodSync(socketPath, 0o600);
    return { http: server, socketPath, dir };
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const ticket = (req.url ?? '').slice(1);
    const hub = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    socket.on('error', () => socket.destroy());
    if (!hub) return void socket.destroy();
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    this.wss.handleUpgrade(req, socket, head, (client) => {
      bridgeCdp(client, hub);
    });
  }
}
