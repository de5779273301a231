import type { ConnectionTransport } from 'puppeteer-core';
import type { CdpChannel, CdpHub } from './hub.ts';

/** Puppeteer (the workflow runner) over a hub channel instead of a DevTools WebSocket. */
export async function puppeteerTransport(hub: CdpHub): Promise<ConnectionTransport> {
  let channel: CdpChannel | undefined;
  const transport: ConnectionTransport = {
    send: (message) => channel?.send(message),
    close: () => channel?.close(),
  };
  channel = await hub.channel({
    message: (msg) => transport.onmessage?.(JSON.stringify(msg)),
    closed: () => transport.onclose?.(),
  });
  return transport;
}
