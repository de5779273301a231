import type { CdpLink, CdpMessage, ChannelSink, ChannelSource } from './channel.ts';

type Listener = (params: Record<string, unknown>, sessionId?: string) => void;

/** Opens a link that hands what arrives to `sink`; the sink's closed() is called once it ends. */
export type OpenLink = (sink: ChannelSink) => Promise<CdpLink>;

/**
 * The one CDP client (ids, pending calls with timeouts, events): what the service itself uses
 * (storage state, readiness, the livestream) and what the tests drive a session's page with.
 * Flat sessions: a target's messages carry its sessionId.
 */
export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private link!: CdpLink;

  private constructor() {}

  /** A client on a new channel of the session's hub. */
  static open(hub: ChannelSource): Promise<CdpClient> {
    return CdpClient.over((sink) => hub.channel(sink));
  }

  /** A client over any link, e.g. a connect_url WebSocket (test/helpers/cdpSocket.ts). */
  static async over(openLink: OpenLink): Promise<CdpClient> {
    const client = new CdpClient();
    client.link = await openLink({ message: (m) => client.receive(m), closed: (r) => client.closedBy(r) });
    return client;
  }

  private receive(msg: CdpMessage): void {
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`CDP: ${msg.error.message}`));
      else p.resolve(msg.result ?? {});
    } else if (msg.method) {
      for (const l of this.listeners.get(msg.method) ?? []) l(msg.params ?? {}, msg.sessionId);
      for (const l of this.listeners.get('*') ?? []) l({ method: msg.method, params: msg.params ?? {} }, msg.sessionId);
    }
  }

  private closedBy(reason: string): void {
    for (const p of this.pending.values()) p.reject(new Error(`CDP connection closed: ${reason}`));
    this.pending.clear();
    for (const l of this.closeListeners) l(reason);
  }

  get closed(): boolean {
    return this.link.closed;
  }

  /** One command; a browser that does not answer within `timeoutMs` is an error, not a hang. */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
    timeoutMs = 15_000,
  ): Promise<T> {
    if (this.link.closed) return Promise.reject(new Error('CDP connection closed'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`CDP: ${method} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle =
        <A extends unknown[]>(fn: (...a: A) => void) =>
        (...a: A) => {
          clearTimeout(timer);
          fn(...a);
        };
      this.pending.set(id, { resolve: settle(resolve as (v: unknown) => void), reject: settle(reject) });
      this.link.send({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    });
  }

  /** Events by method; '*' gets every event as { method, params }. */
  on(method: string, listener: Listener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.add(listener);
  }

  close(): void {
    this.link.close();
  }
}
