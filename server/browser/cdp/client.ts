import type { CdpChannel, CdpHub, CdpMessage } from './hub.ts';

type Listener = (params: Record<string, unknown>, sessionId?: string) => void;

/**
 * A promise-based CDP client over one hub channel: what the service itself uses (storage state,
 * readiness, the livestream). Flat sessions: a target's messages carry its sessionId.
 */
export class CdpClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private channel!: CdpChannel;

  private constructor() {}

  static async open(hub: CdpHub): Promise<CdpClient> {
    const client = new CdpClient();
    client.channel = await hub.channel({ message: (m) => client.receive(m), closed: (r) => client.closedBy(r) });
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
    return this.channel.closed;
  }

  /** One command; a browser that does not answer within `timeoutMs` is an error, not a hang. */
  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string, timeoutMs = 15_000): Promise<T> {
    if (this.channel.closed) return Promise.reject(new Error('CDP connection closed'));
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
      this.channel.send({ id, method, params, ...(sessionId ? { sessionId } : {}) });
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
    this.channel.close();
  }
}
