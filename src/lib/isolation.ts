import { SessionIsolation } from '../../contract/isolation.ts';

/**
 * A session's isolation as its API answer says it; 'browser' when the answer has none (a server older
 * than context sessions) or one this dashboard does not know.
 */
export function isolationOf(session: object | undefined): SessionIsolation {
  const value = session && 'isolation' in session ? session.isolation : undefined;
  const parsed = SessionIsolation.safeParse(value);
  return parsed.success ? parsed.data : 'browser';
}

/** The isolation of a session being read: undefined until the answer (or its failure, then 'browser') is in. */
export const isolationWhenRead = (query: { data?: object; isError: boolean }): SessionIsolation | undefined =>
  query.data ? isolationOf(query.data) : query.isError ? 'browser' : undefined;
