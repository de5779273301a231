import type { SessionClients } from '../../contract/sessions.ts';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Who is connected to the session now, in words: "Watching: you + 2 viewers · 1 CDP client".
 * `own` is how many of the viewers are this page's own live views (taken off, as "you").
 */
export function watchersText(clients: SessionClients, own: number): string {
  const others = Math.max(0, clients.viewers - own);
  const parts = [others > 0 ? `you + ${count(others, 'viewer', 'viewers')}` : 'you'];
  if (clients.cdp > 0) parts.push(count(clients.cdp, 'CDP client', 'CDP clients'));
  return `Watching: ${parts.join(' · ')}`;
}

/** The session's watchers, small, beside the live view; nothing until the server says (an older server: never). */
export function Watchers({ clients, own }: { clients?: SessionClients | null; own: number }) {
  if (!clients) return null;
  return (
    <p className="hint watchers" data-testid="session-watchers">
      {watchersText(clients, own)}
    </p>
  );
}
