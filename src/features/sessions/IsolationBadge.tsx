import { SessionIsolation } from '../../../contract/isolation.ts';

/**
 * A session's isolation as its API answer says it; 'browser' (today's only kind) when the answer has
 * none, from a server older than context sessions.
 */
export function isolationOf(session: object | undefined): SessionIsolation {
  const value = session && 'isolation' in session ? session.isolation : undefined;
  const parsed = SessionIsolation.safeParse(value);
  return parsed.success ? parsed.data : 'browser';
}

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
