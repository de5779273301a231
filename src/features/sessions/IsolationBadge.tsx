import type { SessionIsolation } from '../../../contract/isolation.ts';
import { isolationOf } from '../../lib/isolation.ts';

const TEXT: Record<SessionIsolation, { short: string; long: string }> = {
  browser: { short: 'own browser', long: 'A browser of its own' },
  context: { short: 'context', long: 'A browser context in a browser shared with other sessions of the same API key' },
};

/** Which kind a session is: its own browser, or a context in a shared one. `quiet`: say nothing for the default. */
export function IsolationBadge({ session, quiet = false }: { session: object | undefined; quiet?: boolean }) {
  const isolation = isolationOf(session);
  if (quiet && isolation === 'browser') return null;
  return (
    <span className="badge" title={TEXT[isolation].long} data-isolation={isolation}>
      {TEXT[isolation].short}
      <span className="visually-hidden">: {TEXT[isolation].long}</span>
    </span>
  );
}
