import WebSocket from 'ws';
import type { CdpChannel, SessionCdp } from './hub.ts';

/** A client this far behind stops the session's browser from being read until it catches up. */
const HIGH_WATER = 8 * 1024 * 1024;
const LOW_WATER = 1024 * 1024;

/**
 * connect_url: a client's WebSocket bridged to a channel of the session's hub, message for message.
 * The client is not read until the channel is open (what already arrived is queued), nor while the
 * channel has too many unanswered commands (ChannelSink.pressure). Bytes handed to the socket and
 * not yet written are counted: past HIGH_WATER the channel holds the browser's pipe (backpressure)
 * rather than let a client that never reads grow this server's memory. Returns a closer.
 */
export function bridgeCdp(
  client: WebSocket,
  hub: SessionCdp,
  opts: { onError?: (err: Error) => void } = {},
): (code: number, reason: string) => void {
  const queue: string[] = [];
  let channel: CdpChannel | undefined;
  let closed = false;
  let unwritten = 0;

  const close = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    channel?.close();
    if (client.readyState === WebSocket.OPEN || client.readyState === WebSocket.CONNECTING) client.close(code, reason);
  };

  const deliver = (text: string) => {
    if (client.readyState !== WebSocket.OPEN) return;
    const size = Buffer.byteLength(text);
    unwritten += size;
    if (unwritten > HIGH_WATER) channel?.hold(true);
    client.send(text, (err) => {
      unwritten -= size;
      if (err) return;
      if (unwritten < LOW_WATER) channel?.hold(false);
    });
  };

  client.pause();
  client.on('message', (data, isBinary) => {
    const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data);
    if (channel) channel.send(text);
    else queue.push(text);
  });
  client.on('close', () => close(1000, 'client closed'));
  client.on('error', (err) => {
    opts.onError?.(err);
    close(1011, 'error');
  });

  hub
    .channel({
      message: (msg) => deliver(JSON.stringify(msg)),
      closed: () => close(1001, 'browser closed'),
      pressure: (over) => (over ? client.pause() : client.resume()),
    })
    .then((c) => {
      channel = c;
      if (closed) return c.close();
      for (const text of queue.splice(0)) c.send(text);
      if (!c.pressing) client.resume();
    })
    .catch((err: Error) => {
      opts.onError?.(err);
      close(1011, 'browser unavailable');
    });
  return close;
}
