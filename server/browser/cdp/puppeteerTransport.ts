import type { ConnectionTransport } from 'puppeteer-core';
import type { CdpChannel, CdpHub } from './hub.ts';

/** Puppeteer (the workflow runner) over a hub channel instead of a DevTools WebSocket. */
export async function puppeteerTransport(hub: CdpHub): Promise<ConnectionTransport> {
  // Puppeteer sets onmessage and onclose on the transport after connect() receives it.
  const sink: Partial<Pick<ConnectionTransport, 'onmessage' | 'onclose'>> = {};
  const channel: CdpChannel = await hub.channel({
    message: (msg) => sink.onmessage?.(JSON.stringify(msg)),
    closed: () => sink.onclose?.(),
  });
  return Object.assign(sink, { send: (message: string) => channel.send(message), close: () => channel.close() });
}
