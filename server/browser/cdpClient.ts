import WebSocket from 'ws';

type Listener = (params: Record<string, unknown>, sessionId?: string) => void;

/**
 * The few CDP calls the manager itself makes (storage state, liveness), over one WebSocket to
 * Chromium's browser endpoint. Flat sessions: a target's messages carry its sessionId.
 */
export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, Set<Listener>>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string }; sessionId?: string };
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new Error(`CDP: ${msg.error.message}`));
        else p.resolve(msg.result);
      } else if (msg.method) {
        for (const l of this.listeners.get(msg.method) ?? []) l(msg.params ?? {}, msg.sessionId);
      }
    });
    // Errors end in 'close', which fails what is pending; an unheard 'error' would crash the server.
    ws.on('error', () => undefined);
    ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('CDP connection closed'));
      this.pending.clear();
    });
  }

  static connect(url: string, timeoutMs = 10_000): Promise<CdpClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: timeoutMs });
      ws.once('open', () => resolve(new CdpClient(ws)));
      ws.once('error', reject);
    });
  }

  /** One command; a browser that does not answer within `timeoutMs` is an error, not a hang. */
  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string, timeoutMs = 15_000): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`CDP: ${method} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = <A extends unknown[]>(fn: (...a: A) => void) => (...a: A) => {
        clearTimeout(timer);
        fn(...a);
      };
      this.pending.set(id, { resolve: settle(resolve as (v: unknown) => void), reject: settle(reject) });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  on(method: string, listener: Listener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  close(): void {
    this.ws.close();
  }
}
