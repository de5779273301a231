import type { Config } from '../../config.ts';
import { Invalid } from '../../domain/errors.ts';
import type { SessionIsolation } from '../../../contract/sessions.ts';
import type { CreateSessionInput } from '../types.ts';

/**
 * The kind of session a create gets: what it asked, else the server's SESSION_ISOLATION. A proxy, a
 * User-Agent and a profile are given to a browser as it starts, so a session with one takes a
 * browser of its own (the answer's `isolation` says so). Chromium's own window (presentation
 * `browser`) is not a context's to show: refused when the create asked for a context outright.
 */
export function isolationOf(input: CreateSessionInput, config: Pick<Config, 'SESSION_ISOLATION'>): SessionIsolation {
  const asked = input.isolation ?? config.SESSION_ISOLATION;
  if (asked === 'browser') return 'browser';
  if (input.presentation === 'browser') {
    if (input.isolation === 'context')
      throw new Invalid([
        {
          path: 'presentation',
          message:
            "presentation 'browser' shows Chromium's whole window, which a context session does not have (its live view is its own pages): leave presentation out, or ask isolation 'browser'",
        },
      ]);
    return 'browser';
  }
  if (input.proxies || input.userAgent || input.profile) return 'browser';
  return 'context';
}
