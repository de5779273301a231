import type { Readable, Writable } from 'node:stream';
import { CdpCommand } from '../../../contract/cdp.ts';
import { parseCommand } from './parseCommand.ts';
import { CdpClient } from './client.ts';
import type { CdpMessage, ChannelSink } from './channel.ts';
import { checkCommand, type SessionFolders } from './policy.ts';
import { ContextGuard } from './contextGuard.ts';
import { ScopeKnowledge } from './contextScope.ts';

/**
 * Unanswered commands one channel may have in Chromium at once, by count and by bytes. Past either
 * the channel's client is not read (ChannelSink.pressure) until answers bring it back under half,
 * so that a client flooding commands cannot grow this server's memory (the pipe's write buffer).
 */
export const MAX_IN_FLIGHT = 1000;
export const MAX_IN_FLIGHT_BYTES = 16 * 1024 * 1024;

/**
 * Chromium answers one message at most this big; a larger one is dropped (its command fails with
 * an error) so that no single response can take the server's memory.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * What a session holds of its browser's DevTools: channels, each under the session's policy. A
 * browser session's is its own browser's hub; a context session's is a view of a shared browser's
 * hub bound to its browser context (CdpHub.scoped).
 */
export type SessionCdp = Pick<CdpHub, 'channel'>;

/** A context session's bounds inside a shared browser: what its channels may see and reach. */
export interface ContextScope {
  /** The session's browser context: its channels see and drive this context's targets only. */
  browserContextId: string;
  /** The session's own folders (downloads land here; files given to pages come from here). */
  folders: SessionFolders;
  /** Browser.close from the session's client: this session ends, never the shared browser. */
  onBrowserClose: () => void;
}

const SESSION_NOT_FOUND = -32001;
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;

/**
 * One connection of the session's browser, as if it were a DevTools WebSocket of its own: it has
 * its own browser-target session (Target.attachToBrowserTarget), so discovery, auto-attach and
 * domain state of one consumer never leak into another's, and it can only address the target
 * sessions it attached itself. Every command passes the session's policy first.
 */
export class CdpChannel {
  /** Its browser-target session; messages without a sessionId are sent on it. */
  root = '';
  readonly sessions = new Set<string>();
  closed = false;
  /** Commands sent to Chromium and not yet answered, and their bytes. */
  inFlight = 0;
  inFlightBytes = 0;
  private pressed = false;

  /** Over its in-flight limits: its client should not be read. */
  get pressing(): boolean {
    return this.pressed;
  }

  /** A context session's channel is bound to its browser context (contextGuard.ts); without one, the whole browser. */
  readonly guard: ContextGuard | undefined;

  constructor(
    private readonly hub: CdpHub,
    readonly sink: ChannelSink,
    guardOf?: (channel: CdpChannel) => ContextGuard,
  ) {
    this.guard = guardOf?.(this);
  }

  /**
   * A command from the consumer, as raw text (a client's WebSocket frame, parsed here once with
   * limits) or as an object (the service's own clients). A message that is not a command is
   * answered with a protocol error on this channel and goes no further.
   */
  send(input: string | CdpMessage): void {
    if (this.closed) return;
    if (typeof input === 'string') {
      const parsed = parseCommand(input);
      if (!parsed.ok)
        return this.sink.message({
          id: parsed.id,
          error: { code: INVALID_REQUEST, message: parsed.message },
          ...(parsed.sessionId ? { sessionId: parsed.sessionId } : {}),
        });
      return this.hub.command(this, parsed.command);
    }
    const checked = CdpCommand.safeParse(input);
    if (!checked.success)
      return this.sink.message({
        id: 0,
        error: { code: INVALID_REQUEST, message: checked.error.issues[0]?.message ?? 'Invalid command' },
      });
    this.hub.command(this, checked.data);
  }

  /** Count a command in (bytes > 0) or its answer out (bytes < 0), telling the sink when the limits are crossed. */
  account(count: number, bytes: number): void {
    this.inFlight += count;
    this.inFlightBytes += bytes;
    const over = this.inFlight > MAX_IN_FLIGHT || this.inFlightBytes > MAX_IN_FLIGHT_BYTES;
    const under = this.inFlight <= MAX_IN_FLIGHT / 2 && this.inFlightBytes <= MAX_IN_FLIGHT_BYTES / 2;
    if (over && !this.pressed) {
      this.pressed = true;
      this.sink.pressure?.(true);
    } else if (under && this.pressed) {
      this.pressed = false;
      this.sink.pressure?.(false);
    }
  }

  /** Stop reading from Chromium while this consumer cannot keep up (see CdpHub.hold). */
  hold(on: boolean): void {
    this.hub.hold(this, on);
  }

  close(): void {
    this.hub.closeChannel(this, 'closed');
  }
}

interface Pending {
  channel?: CdpChannel;
  clientId: number;
  method: string;
  /** Bytes written for it, counted against its channel until answered. */
  bytes: number;
  /** Sent by the hub's own client (call()): answered to it, not to a channel. */
  own?: true;
}

/**
 * The only door to a session's browser: Chromium's DevTools on a pipe (--remote-debugging-pipe,
 * fds 3 and 4, NUL-separated JSON), which only this process holds. No TCP port exists that a page,
 * another session or another local user could reach. Consumers get channels multiplexed over it.
 */
export class CdpHub {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Every target session by id, with the channel that attached it. */
  private readonly owners = new Map<string, CdpChannel>();
  private readonly channels = new Set<CdpChannel>();
  private readonly holders = new Set<CdpChannel>();
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  private dropping = false;
  private ended: string | undefined;
  /** The hub's own client on the pipe's own session, and where the pipe's answers to it go. */
  private readonly own: Promise<CdpClient>;
  private ownSink: ChannelSink | undefined;

  constructor(
    private readonly out: Writable,
    private readonly input: Readable,
    private readonly folders: SessionFolders,
  ) {
    this.own = CdpClient.over((sink) => {
      this.ownSink = sink;
      const isEnded = () => this.ended !== undefined;
      return Promise.resolve({
        get closed() {
          return isEnded();
        },
        send: (msg: CdpMessage) => this.sendOwn(msg),
        close: () => undefined,
      });
    });
    input.on('data', (d: Buffer) => this.read(d));
    input.on('close', () => this.shutdown('browser closed'));
    input.on('error', () => this.shutdown('browser closed'));
    out.on('error', () => this.shutdown('browser closed'));
  }

  get open(): boolean {
    return !this.ended;
  }

  /** A command on the pipe's own session (the manager's readiness check, the hub's own attach and detach): CdpClient's ids and timeouts. */
  async call(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
    timeoutMs = 15_000,
  ): Promise<Record<string, unknown>> {
    return (await this.own).send(method, params, sessionId, timeoutMs);
  }

  /** A new channel with its own browser-target session. */
  async channel(sink: ChannelSink): Promise<CdpChannel> {
    return this.attach(new CdpChannel(this, sink));
  }

  /**
   * A context session's view of this (shared) browser: its channels see and drive `scope`'s browser
   * context only, and its files are the session's (contextScope.ts says what is bound and how).
   */
  scoped(scope: ContextScope): SessionCdp {
    const knowledge = new ScopeKnowledge(scope.browserContextId);
    return {
      channel: (sink) =>
        this.attach(
          new CdpChannel(
            this,
            sink,
            (channel) =>
              new ContextGuard(
                this,
                scope,
                knowledge,
                (msg, sessionId, params) => this.pass(channel, msg, sessionId, params, scope.folders),
                (msg) => sink.message(msg),
                () => channel.closed,
                (count, bytes) => channel.account(count, bytes),
              ),
          ),
        ),
    };
  }

  private async attach(channel: CdpChannel): Promise<CdpChannel> {
    const { sessionId } = (await this.call('Target.attachToBrowserTarget')) as { sessionId: string };
    channel.root = sessionId;
    channel.guard?.browserSessions.add(sessionId);
    channel.sessions.add(sessionId);
    this.owners.set(sessionId, channel);
    this.channels.add(channel);
    if (this.ended) this.closeChannel(channel, this.ended);
    return channel;
  }

  command(channel: CdpChannel, msg: CdpCommand): void {
    const reply = (error: { code: number; message: string }) =>
      channel.sink.message({ id: msg.id, error, ...(msg.sessionId ? { sessionId: msg.sessionId } : {}) });
    const sessionId = msg.sessionId ?? channel.root;
    if (!channel.sessions.has(sessionId))
      return reply({ code: SESSION_NOT_FOUND, message: 'Session with given id not found.' });
    if (channel.guard) return channel.guard.submit(msg, sessionId);
    this.pass(channel, msg, sessionId, msg.params ?? {}, this.folders);
  }

  /** A command on to Chromium under the session's policy (a context session's already passed its view's rules). */
  private pass(
    channel: CdpChannel,
    msg: CdpCommand,
    sessionId: string,
    params: Record<string, unknown>,
    folders: SessionFolders,
  ): number | undefined {
    const verdict = checkCommand(msg.method, params, { folders, owns: (s) => channel.sessions.has(s) });
    if (!verdict.ok)
      return void channel.sink.message({
        id: msg.id,
        error: { code: SERVER_ERROR, message: verdict.message },
        ...(msg.sessionId ? { sessionId: msg.sessionId } : {}),
      });
    const id = this.nextId++;
    const bytes = this.write({ id, method: msg.method, params: verdict.params ?? params, sessionId });
    this.pending.set(id, { channel, clientId: msg.id, method: msg.method, bytes });
    channel.account(1, bytes);
    return id;
  }

  /** A command of the hub's own client, under a pipe id of its own (answered through ownSink). */
  private sendOwn(msg: CdpMessage): void {
    if (this.ended) return this.ownSink?.message({ id: msg.id, error: { message: this.ended } });
    const id = this.nextId++;
    this.pending.set(id, { clientId: msg.id!, method: msg.method!, bytes: 0, own: true });
    this.write({ ...msg, id });
  }

  /**
   * Backpressure: while any consumer holds, the pipe is not read, so Chromium waits (its own
   * buffers grow, counted against the session's browser) instead of this server's memory.
   */
  hold(channel: CdpChannel, on: boolean): void {
    if (on) this.holders.add(channel);
    else this.holders.delete(channel);
    if (this.holders.size) this.input.pause();
    else this.input.resume();
  }

  closeChannel(channel: CdpChannel, reason: string): void {
    if (channel.closed) return;
    channel.closed = true;
    this.channels.delete(channel);
    this.hold(channel, false);
    for (const s of channel.sessions) this.owners.delete(s);
    // Detaching the browser-target session detaches every session attached through it.
    if (!this.ended && channel.root)
      this.call('Target.detachFromTarget', { sessionId: channel.root }).catch(() => undefined);
    channel.sink.closed(reason);
  }

  /** The length written, in characters: what it holds of the pipe's buffer, closely enough for the in-flight limits. */
  private write(msg: CdpMessage): number {
    if (this.ended) return 0;
    const text = `${JSON.stringify(msg)}\0`;
    this.out.write(text);
    return text.length;
  }

  private read(data: Buffer): void {
    let start = 0;
    for (let nul = data.indexOf(0, start); nul >= 0; nul = data.indexOf(0, start)) {
      this.append(data.subarray(start, nul));
      const whole = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      const dropped = this.dropping;
      this.chunks = [];
      this.chunkBytes = 0;
      this.dropping = false;
      if (dropped) this.tooLarge(whole);
      else this.dispatch(whole.toString('utf8'));
      start = nul + 1;
    }
    this.append(data.subarray(start));
  }

  /** Past MAX_MESSAGE_BYTES only the head is kept, to name the command the answer belonged to. */
  private append(part: Buffer): void {
    if (!part.length) return;
    if (this.dropping) return;
    this.chunkBytes += part.length;
    this.chunks.push(part);
    if (this.chunkBytes > MAX_MESSAGE_BYTES) {
      this.dropping = true;
      this.chunks = [Buffer.concat(this.chunks).subarray(0, 64)];
    }
  }

  private tooLarge(head: Buffer): void {
    const id = /^\{"id":(\d+)/.exec(head.toString('latin1'))?.[1];
    if (id === undefined) return; // an event: dropped
    this.answer({
      id: Number(id),
      error: {
        code: SERVER_ERROR,
        message: `The answer is larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB and was dropped`,
      },
    });
  }

  private dispatch(text: string): void {
    let msg: CdpMessage;
    try {
      msg = JSON.parse(text) as CdpMessage;
    } catch {
      return;
    }
    if (msg.id !== undefined) return this.answer(msg);
    if (!msg.sessionId) return; // the pipe's own session: only our attach bookkeeping
    const owner = this.owners.get(msg.sessionId);
    if (!owner) return;
    const child = (msg.params as { sessionId?: string } | undefined)?.sessionId;
    if (owner.guard && owner.guard.event(msg, (s) => owner.sessions.has(s)) !== 'forward') return;
    if (msg.method === 'Target.attachedToTarget' && child) {
      owner.sessions.add(child);
      this.owners.set(child, owner);
    } else if (msg.method === 'Target.detachedFromTarget' && child) {
      owner.sessions.delete(child);
      this.owners.delete(child);
    }
    owner.sink.message(this.forClient(owner, msg));
  }

  private answer(msg: CdpMessage): void {
    const p = this.pending.get(msg.id!);
    if (!p) return;
    this.pending.delete(msg.id!);
    if (p.own) return this.ownSink?.message({ ...msg, id: p.clientId });
    const channel = p.channel!;
    channel.account(-1, -p.bytes);
    if (channel.closed) return;
    const attached = (msg.result as { sessionId?: unknown } | undefined)?.sessionId;
    if (
      typeof attached === 'string' &&
      (p.method === 'Target.attachToTarget' || p.method === 'Target.attachToBrowserTarget')
    ) {
      channel.sessions.add(attached);
      this.owners.set(attached, channel);
    }
    const seen = channel.guard ? channel.guard.answered(p.method, msg) : msg;
    channel.sink.message(this.forClient(channel, { ...seen, id: p.clientId }));
  }

  /** The channel's own browser session is its "connection": its messages carry no sessionId. */
  private forClient(channel: CdpChannel, msg: CdpMessage): CdpMessage {
    if (msg.sessionId !== channel.root) return msg;
    const { sessionId: _root, ...rest } = msg;
    return rest;
  }

  private shutdown(reason: string): void {
    if (this.ended) return;
    this.ended = reason;
    this.pending.clear();
    this.ownSink?.closed(reason);
    for (const c of [...this.channels]) this.closeChannel(c, reason);
  }

  /** End every channel (the tree is being killed). */
  close(): void {
    this.shutdown('session ended');
  }
}
