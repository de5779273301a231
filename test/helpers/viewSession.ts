import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { CdpClient } from '../../server/sessions/cdp/client.ts';
import { connectCdp } from './cdpSocket.ts';
import { postJson, type TestServer } from './server.ts';
import { waitForAsync } from './wait.ts';

export { waitForAsync };

/**
 * Shared set-up of the view tests (vnc*, livestream) and bench/livestream.ts: a real session from
 * the API, a page server to show in it, and its page driven over CDP.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The viewer pages are served from dist/: build once if a fresh checkout has none (CI's set-up
 * builds first). Test files run in parallel, so the check and the build happen under a lock.
 */
export function ensureViewerBuilt(): void {
  const built = () =>
    fs.existsSync(path.join(ROOT, 'dist/embed/vnc.html')) && fs.existsSync(path.join(ROOT, 'dist/embed/live.html'));
  if (built()) return;
  const script = 'test -f dist/embed/vnc.html && test -f dist/embed/live.html || npx vite build --logLevel warn';
  execFileSync('flock', [path.join(os.tmpdir(), 'browserdesk-vite-build.lock'), 'sh', '-c', script], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (!built()) throw new Error('vite build did not produce dist/embed/vnc.html and live.html');
}

/** A session as the view tests see it: its URLs and a way to drive its browser over CDP. */
export interface ViewSession {
  id: string;
  vncUrl: string;
  liveUrl: string;
  viewToken: string;
  controlToken: string;
  cdpToken: string;
  /** The session's connect_url: tests drive its page as a customer would. */
  connectUrl: string;
  end(): Promise<void>;
}

/** Start a real session through the API (POST /api/create_workflow_session, with `fields`) and read its URLs. */
export async function openViewSession(server: TestServer, fields: Record<string, unknown> = {}): Promise<ViewSession> {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'view tests', ...fields });
  if (res.status !== 200) throw new Error(`create_workflow_session: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as {
    session_id: string;
    vnc_url: string;
    livestream_url: string;
    connect_url: string;
  };
  const token = (url: string) => new URL(url).searchParams.get('token')!;
  return {
    id: body.session_id,
    vncUrl: body.vnc_url,
    liveUrl: body.livestream_url,
    viewToken: token(body.livestream_url),
    controlToken: token(body.vnc_url),
    cdpToken: token(body.connect_url),
    connectUrl: body.connect_url,
    end: async () => {
      await server.api(`/api/sessions/${body.session_id}`, { method: 'DELETE' });
    },
  };
}

/** A loopback page server: `/solid/<hex>` paints one colour and records clicks in window.clicks. */
export async function startPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const m = /^\/solid\/([0-9a-f]{6})$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>solid</title>
<style>html,body{margin:0;height:100%;background:#${m[1]};cursor:default}</style>
<script>window.clicks=[];addEventListener('mousedown',e=>clicks.push([e.clientX,e.clientY]));addEventListener('keydown',e=>clicks.push(e.key));</script>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** The session's first page, driven over its connect_url by the shared CdpClient (navigate, evaluate). */
export class CdpPage {
  private constructor(
    private readonly cdp: CdpClient,
    private readonly sessionId: string,
  ) {}

  static async attach(connectUrl: string): Promise<CdpPage> {
    const cdp = await connectCdp(connectUrl);
    try {
      const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>(
        'Target.getTargets',
      );
      const target = targetInfos.find((t) => t.type === 'page');
      if (!target) throw new Error('no page target');
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId: target.targetId,
        flatten: true,
      });
      return new CdpPage(cdp, sessionId);
    } catch (err) {
      cdp.close();
      throw err;
    }
  }

  /** A command to the page's target session. */
  call<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.cdp.send<T>(method, params, this.sessionId);
  }

  async goto(url: string): Promise<void> {
    await this.call('Page.navigate', { url });
    // The page's own script defines window.clicks, so its presence means the page is in.
    await waitForAsync('navigation', async () =>
      (await this.evaluate('document.readyState === "complete" && Array.isArray(window.clicks)')) ? true : undefined,
    );
  }

  async evaluate(expression: string): Promise<unknown> {
    const r = await this.call<{ result: { value?: unknown } }>('Runtime.evaluate', { expression, returnByValue: true });
    return r.result.value;
  }

  close(): void {
    this.cdp.close();
  }
}
