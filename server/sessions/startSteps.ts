import type { Log } from '../log.ts';
import { Invalid } from '../domain/errors.ts';
import type { Presentation, StorageState } from '../../contract/sessions.ts';
import { CdpClient } from './cdp/client.ts';
import type { SessionCdp } from './cdp/hub.ts';
import { applyPresentation } from './browser/presentation.ts';
import { openStartUrl } from './browser/startUrl.ts';
import { applyStorageState } from './storageState.ts';

/** What a started browser is given before its session is handed out, in this order. */
export interface StartSteps {
  /** The profile's imported storage state (a profile that has no browser folder yet). */
  profileState?: () => Promise<StorageState>;
  /** create's session_data. */
  sessionData?: StorageState;
  /** The presentation to switch to; left out when the browser was launched in it. */
  presentation?: Presentation;
  startUrl?: string;
}

/**
 * Give a started browser what its session asked for, on one short-lived CDP client. `signal` is
 * the session's end: once aborted, the client closes (a step under way fails at once) and the
 * steps stop with the signal's reason.
 */
export async function runStartSteps(hub: SessionCdp, steps: StartSteps, signal: AbortSignal, log: Log): Promise<void> {
  signal.throwIfAborted();
  if (!steps.profileState && !steps.sessionData && !steps.presentation && !steps.startUrl) return;
  const cdp = await CdpClient.open(hub);
  const closeNow = () => cdp.close();
  signal.addEventListener('abort', closeNow);
  try {
    signal.throwIfAborted();
    if (steps.profileState) await applyState(cdp, await steps.profileState(), 'profile', signal);
    if (steps.sessionData) await applyState(cdp, steps.sessionData, 'session_data', signal);
    if (steps.presentation) await applyPresentation(cdp, steps.presentation);
    signal.throwIfAborted();
    if (steps.startUrl) await openStartUrl(cdp, steps.startUrl, log);
    signal.throwIfAborted();
  } catch (err) {
    // A step cut short by the end fails for that reason, not as the caller's bad input.
    signal.throwIfAborted();
    throw err;
  } finally {
    signal.removeEventListener('abort', closeNow);
    cdp.close();
  }
}

async function applyState(
  cdp: CdpClient,
  state: StorageState,
  from: 'session_data' | 'profile',
  signal: AbortSignal,
): Promise<void> {
  try {
    await applyStorageState(cdp, state);
  } catch (err) {
    signal.throwIfAborted();
    throw new Invalid([
      { path: from, message: `${from}'s storage state could not be applied: ${(err as Error).message}` },
    ]);
  }
  signal.throwIfAborted();
}
