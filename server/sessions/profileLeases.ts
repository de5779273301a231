import type { Log } from '../log.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { Unavailable } from '../domain/errors.ts';
import type { BrowserTree } from './browser/tree.ts';
import type { CreateSessionInput, EndReason, ProfileLease, ProfileOpening, ProfileSource } from './types.ts';

/** Longest a persisting session's browser has to close cleanly (flushing its cookies) before the save. */
const BROWSER_CLOSE_TIMEOUT_MS = 10_000;

/**
 * The profiles this node's sessions started from, by session id: each held from the session's
 * start until it ends, and saved back first when it persists.
 */
export class ProfileLeases {
  private readonly leases = new Map<string, ProfileLease>();

  /** `source`: where profiles are opened; without it, a session that names one is refused. */
  constructor(
    private readonly source: ProfileSource | undefined,
    private readonly log: Log,
  ) {}

  /** The profile a create names, opened before a browser is picked (NotFound when there is none). */
  open(use: NonNullable<CreateSessionInput['profile']>): Promise<ProfileOpening> {
    if (!this.source) throw new Unavailable(ErrorCode.browserUnavailable, 'This server keeps no profiles');
    return this.source.open(use);
  }

  /** Record the session as using the profile (Conflict when it persists and another session does). */
  async take(sessionId: string, opening: ProfileOpening): Promise<ProfileLease> {
    const lease = await opening.take(sessionId);
    this.leases.set(sessionId, lease);
    return lease;
  }

  /**
   * Give the session's profile back, if it has one. A persisting session's browser is closed
   * first, so that it writes everything (cookies are flushed on a clean exit only); a crash, or a
   * session that never went live, saves nothing.
   */
  async release(sessionId: string, reason: EndReason, ended: { live: boolean; tree?: BrowserTree }): Promise<void> {
    const lease = this.leases.get(sessionId);
    if (!lease) return;
    this.leases.delete(sessionId);
    let outcome: Parameters<ProfileLease['end']>[0];
    if (!lease.persist) outcome = { unsaved: 'the session used the profile read-only' };
    else if (reason === 'failed_to_start' || !ended.live) outcome = { unsaved: 'the session never started' };
    else if (reason === 'crashed' || !ended.tree) outcome = { unsaved: 'the browser crashed' };
    else if (await ended.tree.closeBrowser(BROWSER_CLOSE_TIMEOUT_MS))
      outcome = { userDataDir: ended.tree.dirs.profile, owner: ended.tree.user?.uid ?? process.getuid!() };
    else outcome = { unsaved: `the browser did not close cleanly within ${BROWSER_CLOSE_TIMEOUT_MS / 1000} s` };
    await lease
      .end(outcome)
      .catch((err: unknown) => this.log.warn({ err, session_id: sessionId }, 'profile not released'));
  }
}
