import type { Config } from '../config.ts';
import type { Bus } from '../events/bus.ts';
import type { Log } from '../log.ts';
import type { SessionsRepo } from '../store/sessions.ts';
import type { BrowserStartsOptions } from './browserStarts.ts';
import type { SessionLifecycle } from './lifecycle.ts';
import type { ProfileSource } from './types.ts';

/** What the session manager (sessionManager.ts) is built from. */
export interface ManagerOptions {
  config: BrowserStartsOptions['config'] &
    Pick<
      Config,
      | 'MAX_SESSIONS'
      | 'SESSION_ISOLATION'
      | 'CONTEXTS_PER_BROWSER'
      | 'CONTEXT_BROWSER_RECYCLE_AFTER'
      | 'CONTEXT_BROWSER_IDLE_S'
    >;
  repo: SessionsRepo;
  bus: Bus;
  log: Log;
  /** Who acts at each session's turning points (services.ts subscribes them). */
  lifecycle: SessionLifecycle;
  /** Opens the profile a session starts from; without it, a session that names one is refused. */
  profiles?: ProfileSource;
}
