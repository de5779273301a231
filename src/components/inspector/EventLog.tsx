import { useId, useState } from 'react';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { HealedStep } from './HealedStep.tsx';
import { describeEvent, EVENT_KINDS, isProblem, kindMatches, runEndOf, type EventKind } from './event-text.ts';

/** A session's log with the filter by kind: the same for an ended session and one still running. */
export function EventLog({
  events,
  title = 'Log',
  empty,
}: {
  events: readonly SessionEvent[];
  title?: string;
  empty?: string;
}) {
  const id = useId();
  const [kind, setKind] = useState<EventKind | 'all'>('all');
  const shown = events.filter((e) => kindMatches(kind, e));
  const runEnd = runEndOf(events);
  return (
    <div className="card">
      <div className="row spread">
        <h3 id={`${id}-log`}>{title}</h3>
        <div className="row">
          <label htmlFor={`${id}-kind`}>Show</label>
          <select
            id={`${id}-kind`}
            value={kind}
            onChange={(e) => setKind(e.target.value as EventKind | 'all')}
            style={{ width: 'auto' }}
          >
            <option value="all">Everything</option>
            {Object.entries(EVENT_KINDS).map(([key, k]) => (
              <option key={key} value={key}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {empty && shown.length === 0 && (
        <p className="status">{events.length === 0 ? empty : 'Nothing of this kind yet.'}</p>
      )}
      <ol className="log" aria-labelledby={`${id}-log`} tabIndex={0}>
        {shown.map((e) => (
          <li key={e.index} className={isProblem(e) ? 'problem' : undefined}>
            <time dateTime={e.created_at}>{new Date(e.created_at).toLocaleTimeString()}</time>{' '}
            <span className="clamp-3" title={describeEvent(e, runEnd)}>
              {describeEvent(e, runEnd)}
            </span>
            {e.event === 'StepHealed' && <HealedStep event={e} />}
          </li>
        ))}
      </ol>
    </div>
  );
}
