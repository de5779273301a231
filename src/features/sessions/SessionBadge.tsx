import type { Session } from '../../../contract/sessions.ts';

const REASON: Record<NonNullable<Session['end_reason']>, string> = {
  stopped: 'stopped',
  timed_out: 'timed out',
  completed: 'completed',
  crashed: 'crashed',
  failed_to_start: 'failed to start',
};

export function SessionBadge({ session }: { session: Pick<Session, 'state' | 'end_reason'> }) {
  const bad = session.end_reason === 'crashed' || session.end_reason === 'failed_to_start';
  const cls = bad ? 'failed' : session.state;
  return (
    <span className={`badge ${cls}`}>
      {session.state}
      {session.end_reason ? ` · ${REASON[session.end_reason]}` : ''}
    </span>
  );
}
