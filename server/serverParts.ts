/**
 * One part of the server's life, registered beside the construction it belongs to (services.ts):
 * what it does as the server starts, listens, quiesces and closes.
 */
export interface ServerPart {
  /** Before the server listens; parts start in the order they were added. */
  start?(): Promise<void> | void;
  /** Once it listens; in the order added. */
  listening?(): void;
  /** Before connections close (work under way stops); in the reverse order. */
  quiesce?(): Promise<void> | void;
  /** After connections closed; in the reverse order. */
  close?(): Promise<unknown> | unknown;
  /** After every part's close, in the reverse order: what must outlive the rest (the store, the node's membership). */
  closeLast?(): Promise<unknown> | unknown;
}

/** The server's parts in the order they were built, and the four moments of its life over them. */
export class ServerParts {
  private readonly parts: ServerPart[] = [];

  add(part: ServerPart): void {
    this.parts.push(part);
  }

  async start(): Promise<void> {
    for (const p of this.parts) await p.start?.();
  }

  listening(): void {
    for (const p of this.parts) p.listening?.();
  }

  async quiesce(): Promise<void> {
    for (const p of this.reversed()) await p.quiesce?.();
  }

  async close(): Promise<void> {
    for (const p of this.reversed()) await p.close?.();
    for (const p of this.reversed()) await p.closeLast?.();
  }

  private reversed(): ServerPart[] {
    return [...this.parts].reverse();
  }
}
