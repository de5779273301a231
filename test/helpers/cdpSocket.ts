import { WebSocket, type ClientOptions } from 'ws';
import { CdpClient } from '../../server/sessions/cdp/client.ts';
import type { CdpMessage } from '../../server/sessions/cdp/channel.ts';

/**
 * The service's own CdpClient on a session's connect_url, as a customer's client connects: tests
 * and benches use the same ids, pending calls and timeouts as the server instead of a copy.
 */
export async function connectCdp(connectUrl: string, options?: ClientOptions): Promise<CdpClient> {
  const ws = new WebSocket(connectUrl, options);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return cdpOverSocket(ws);
}

/** A CdpClient on an open socket, for a test that also writes raw frames to that socket. */
export function cdpOverSocket(ws: WebSocket): Promise<CdpClient> {
  return CdpClient.over((sink) => {
    ws.on('message', (data) => sink.message(JSON.parse(String(data)) as CdpMessage));
    ws.once('close', (code, reason) => sink.closed(`${code} ${String(reason)}`.trim()));
    // An error is followed by close; without a listener it would be thrown instead.
    ws.on('error', () => undefined);
    return Promise.resolve({
      get closed() {
        return ws.readyState !== WebSocket.OPEN;
      },
      send: (msg: CdpMessage) => ws.send(JSON.stringify(msg)),
      close: () => ws.close(),
    });
  });
}

/** A target as Target.getTargets and the target events describe it (the fields tests read). */
export interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  browserContextId?: string;
}
