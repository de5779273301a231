import WebSocket from 'ws';

/**
 * Bridge a client's WebSocket to Chromium's browser endpoint, message for message (CDP is JSON text
 * frames; the binary flag is kept anyway). Messages the client sends before the upstream is open
 * are queued. Either side closing closes the other. Returns a function that closes both.
 */
export function bridgeCdp(client: WebSocket, browserWSEndpoint: string, opts: { onError?: (err: Error) => void } = {}): (code: number, reason: string) => void {
  const upstream = new WebSocket(browserWSEndpoint, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  const queue: [WebSocket.RawData, boolean][] = [];
  let closed = false;

  const close = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    if (client.readyState === WebSocket.OPEN || client.readyState === WebSocket.CONNECTING) client.close(code, reason);
    if (upstream.readyState === WebSocket.OPEN) upstream.close();
    else upstream.terminate();
  };

  client.on('message', (data, isBinary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    else queue.push([data, isBinary]);
  });
  upstream.on('open', () => {
    for (const [data, isBinary] of queue.splice(0)) upstream.send(data, { binary: isBinary });
  });
  upstream.on('message', (data, isBinary) => {
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
  });
  upstream.on('close', () => close(1001, 'browser closed'));
  upstream.on('error', (err) => {
    opts.onError?.(err);
    close(1011, 'browser unavailable');
  });
  client.on('close', () => close(1000, 'client closed'));
  client.on('error', (err) => {
    opts.onError?.(err);
    close(1011, 'error');
  });
  return close;
}
