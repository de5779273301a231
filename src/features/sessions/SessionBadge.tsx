import type { Session } from '../../../contract/sessions.ts';

const REASON: Record<NonNullable<Session['end_reason']>, string> = {
  stopped: 'stopped',
  timed_out: 'timed out',
  completed: 'completed',
  crashed: 'crashed',
  failed_to_start: 'failed to start',
};

/**
 * `runOutcome`: when the session's run is known to have finished. A session ends "completed" when
 * its run finishes, failed or not, so the run's outcome is what the badge says then.
 */
export function SessionBadge({
  session,
  runOutcome,
}: {
  session: Pick<Session, 'state' | 'end_reason'>;
  runOutcome?: 'succeeded' | 'failed';
}) {
  const byRun = session.end_reason === 'completed' && runOutcome !== undefined;
  const bad =
    session.end_reason === 'crashed' || session.end_reason === 'failed_to_start' || (byRun && runOutcome === 'failed');
  const cls = bad ? 'failed' : session.state;
  return (
    <span className={`badge ${cls}`}>
      {session.state}
      {byRun ? ` · run ${runOutcome}` : session.end_reason ? ` · ${REASON[session.end_reason]}` : ''}
    </span>
  );
}
