import type { CdpCommand } from '../../../contract/cdp.ts';
import type { CdpMessage } from './channel.ts';
import { scopeCommand, scopeEvent, scopeResult, type EventFate, type ScopeKnowledge } from './contextScope.ts';

/** What the guard needs of its hub: its own calls on the pipe, and the road every passed command takes. */
export interface GuardedHub {
  call(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<Record<string, unknown>>;
}

/** The ContextScope fields the guard acts on (hub.ts declares the whole of it). */
export interface GuardScope {
  onBrowserClose: () => void;
}

const SERVER_ERROR = -32000;

/**
 * One channel of a context session's view (CdpHub.scoped): applies contextScope.ts to what goes
 * through it. A command that names a target whose context is not known yet waits for the hub to
 * ask Chromium (Target.getTargetInfo), and every command after it waits behind it, so that a
 * channel's commands reach Chromium in the order they were sent.
 */
export class ContextGuard {
  /** The channel's browser sessions: its own (root), and those it attached with Target.attachToBrowserTarget. */
  readonly browserSessions = new Set<string>();
  /** Downloads its client was told of. */
  readonly downloads = new Set<string>();
  /** Pipe ids of Target.attachToTarget commands to the browser's own target: their sessions are browser sessions. */
  private readonly browserAttaches = new Set<number>();
  private readonly queue: { msg: CdpCommand; sessionId: string; bytes: number }[] = [];
  private looking = false;

  constructor(
    private readonly hub: GuardedHub,
    private readonly scope: GuardScope,
    readonly knowledge: ScopeKnowledge,
    /** Where a command the rules passed goes on (the session's policy, then the pipe): its id on the pipe, if it went. */
    private readonly pass: (msg: CdpCommand, sessionId: string, params: Record<string, unknown>) => number | undefined,
    /** Where the view's own answers and refusals go (the channel's client). */
    private readonly reply: (msg: CdpMessage) => void,
    private readonly isClosed: () => boolean,
    /** Commands waiting behind a lookup count against the channel's in-flight limits (CdpChannel.account). */
    private readonly account: (count: number, bytes: number) => void,
  ) {}

  /** A command the channel may send on `sessionId` (a session it holds): checked in order. */
  submit(msg: CdpCommand, sessionId: string): void {
    // Only a command that waits is measured (a rare case: behind a lookup).
    const bytes = this.looking ? JSON.stringify(msg).length : 0;
    this.queue.push({ msg, sessionId, bytes });
    this.account(1, bytes);
    if (!this.looking) this.drain();
  }

  private drain(): void {
    while (this.queue.length && !this.isClosed()) {
      const { msg, sessionId, bytes } = this.queue[0]!;
      const params = msg.params ?? {};
      const verdict = scopeCommand(msg.method, params, {
        knowledge: this.knowledge,
        browserSession: this.browserSessions.has(sessionId),
        isBrowserSession: (s) => this.browserSessions.has(s),
      });
      if (verdict.ok === 'lookup') {
        this.looking = true;
        void this.lookUp(verdict.targetIds).then(() => {
          this.looking = false;
          this.drain();
        });
        return;
      }
      this.queue.shift();
      this.account(-1, -bytes);
      const respond = (part: Pick<CdpMessage, 'result' | 'error'>) =>
        this.reply({ id: msg.id, ...part, ...(msg.sessionId ? { sessionId: msg.sessionId } : {}) });
      if (verdict.ok === 'answer') {
        respond({ result: verdict.result });
        if (verdict.browserClose) this.scope.onBrowserClose();
      } else if (verdict.ok === 'browserAttach') {
        const id = this.pass(msg, sessionId, params);
        if (id !== undefined) this.browserAttaches.add(id);
      } else if (verdict.ok) this.pass(msg, sessionId, verdict.params ?? params);
      else respond({ error: { code: 'code' in verdict ? verdict.code : SERVER_ERROR, message: verdict.message } });
    }
    if (this.isClosed()) this.queue.length = 0; // a closed channel's counts no longer matter
  }

  /** Learns each target's context; one Chromium does not know is no context's (nothing can reach it). */
  private async lookUp(targetIds: string[]): Promise<void> {
    await Promise.all(
      targetIds.map(async (targetId) => {
        const answer = await this.hub.call('Target.getTargetInfo', { targetId }).catch(() => undefined);
        const info = answer?.targetInfo as { browserContextId?: unknown; type?: unknown } | undefined;
        this.knowledge.learn({ targetId, browserContextId: info?.browserContextId, type: info?.type });
      }),
    );
  }

  /** What of an answer to `method` (`msg` under its pipe id) the client sees, and what the view learns from it. */
  answered(method: string, msg: CdpMessage): CdpMessage {
    const browserAttach = msg.id !== undefined && this.browserAttaches.delete(msg.id);
    if ((method === 'Target.attachToBrowserTarget' || browserAttach) && typeof msg.result?.sessionId === 'string')
      this.browserSessions.add(msg.result.sessionId);
    if (!msg.result) return msg;
    return { ...msg, result: scopeResult(method, msg.result, this.knowledge) };
  }

  /** What becomes of an event on `sessionId`, one of the channel's sessions. */
  event(msg: CdpMessage, holds: (sessionId: string) => boolean): Exclude<EventFate, 'browser'> {
    const fate = scopeEvent(msg, {
      knowledge: this.knowledge,
      browserSession: this.browserSessions.has(msg.sessionId ?? ''),
      holds,
      downloads: this.downloads,
    });
    if (fate === 'release') this.release(String(msg.params?.sessionId), msg.sessionId!);
    if (fate !== 'browser') return fate;
    if (typeof msg.params?.sessionId === 'string') this.browserSessions.add(msg.params.sessionId);
    return 'forward';
  }

  /**
   * A target of another context that auto-attach attached to this channel: resumed (it may be
   * paused waiting for a debugger, which would hold another session's page) and detached, on the
   * hub's own calls; its client never hears of it.
   */
  private release(child: string, parent: string): void {
    void this.hub.call('Runtime.runIfWaitingForDebugger', {}, child).catch(() => undefined);
    void this.hub.call('Target.detachFromTarget', { sessionId: child }, parent).catch(() => undefined);
  }
}
