import { SESSION_TIMEOUT_MAX, type Session } from '../../../contract/sessions.ts';
import { useUpdateSession } from '../../api/sessions/update-session.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useNow } from '../../lib/use-now.ts';

export function formatLeft(ms: number): string {
  if (ms <= 0) return 'time is up';
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${h ? `${h} h ` : ''}${h || m ? `${m} min ` : ''}${sec} s left`;
}

/** Seconds one Extend adds. */
export const EXTEND_BY_SECONDS = 600;

/**
 * When the warning shows: in the last 2 minutes, or the last quarter of a session shorter than
 * 8 minutes (so a short one does not warn from its start).
 */
export const warnWithinMs = (timeoutSeconds: number) => Math.min(120, timeoutSeconds / 4) * 1000;

/** The timeout an Extend asks for: 10 minutes more, within the most a session may live (null: at it already). */
export function extendedTimeout(timeoutSeconds: number): number | null {
  return timeoutSeconds >= SESSION_TIMEOUT_MAX
    ? null
    : Math.min(SESSION_TIMEOUT_MAX, timeoutSeconds + EXTEND_BY_SECONDS);
}

/** Time left before the session's timeout, ticking each second. */
export function TimeLeft({ expiresAt }: { expiresAt: string }) {
  const now = useNow();
  return <span data-testid="time-left">{formatLeft(new Date(expiresAt).getTime() - now)}</span>;
}

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** "2 minutes", "1 minute", "75 seconds". */
export function spanWords(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s % 60 === 0) return s === 60 ? '1 minute' : `${s / 60} minutes`;
  return `${s} seconds`;
}

/** Adds 10 minutes to a live session's timeout (PATCH /sessions/{id}); disabled at the most a session may live. */
function ExtendButton({ session, quiet }: { session: Pick<Session, 'id' | 'timeout'>; quiet?: boolean }) {
  const update = useUpdateSession();
  const next = extendedTimeout(session.timeout);
  if (next === null) return null;
  return (
    <>
      <button
        type="button"
        className={quiet ? 'small secondary' : 'small'}
        disabled={update.isPending}
        onClick={() => update.mutate({ id: session.id, body: { timeout: next } })}
      >
        {update.isPending ? 'Extending…' : 'Extend by 10 min'}
      </button>
      {update.isError && <ErrorNotice error={update.error} title="The session was not extended." />}
    </>
  );
}

type Limited = Pick<Session, 'id' | 'timeout' | 'expires_at'>;

const nearEnd = (session: Limited, now: number) => {
  const left = new Date(session.expires_at).getTime() - now;
  return left > 0 && left <= warnWithinMs(session.timeout);
};

/** A live session's time left on its page, with a quiet Extend until the warning takes over. */
export function TimeLimit({ session }: { session: Limited }) {
  const now = useNow();
  return (
    <span className="row time-limit" style={{ display: 'inline-flex' }}>
      <strong>
        <TimeLeft expiresAt={session.expires_at} />
      </strong>
      {!nearEnd(session, now) && <ExtendButton session={session} quiet />}
    </span>
  );
}

/** A calm warning once a live session's end is near, with a way to extend it. */
export function TimeWarning({ session }: { session: Limited }) {
  const now = useNow();
  if (!nearEnd(session, now)) return null;
  const atMost = extendedTimeout(session.timeout) === null;
  return (
    <div className="notice warn row spread" role="status" data-testid="time-warning">
      <p>
        Less than {spanWords(warnWithinMs(session.timeout))} left: this session ends at {clock(session.expires_at)} and
        its browser closes.{' '}
        {atMost ? 'It has reached the longest a session may live (24 h).' : 'Extend it to keep working.'}
      </p>
      <ExtendButton session={session} />
    </div>
  );
}
