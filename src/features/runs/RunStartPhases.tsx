import { formatDuration } from '../../lib/format.ts';
import { useNow } from '../../lib/use-now.ts';
import type { RunStart } from './run-start.ts';

/** Whole seconds, for a time still counting (a tenth would flicker each tick). */
const seconds = (ms: number) => `${Math.max(0, Math.floor(ms / 1000))} s`;

/**
 * The run's start as it happens: each phase so far, how long the finished ones took, and the one
 * under way with its time ticking. The time is the server's (its events' stamps) against this
 * browser's clock, so a skewed clock is held at 0 s rather than counting backwards.
 */
export function RunStartPhases({ start }: { start: RunStart }) {
  const now = useNow();
  const current = start.phases.at(-1);
  return (
    <div className="run-start" data-testid="run-start">
      <p className="status" role="status">
        {current && current.until === null ? `${current.doing}…` : 'Starting the run…'}
      </p>
      <ol className="steps" aria-label="Run start">
        {start.phases.map((p) => (
          <li key={p.key} data-phase={p.key} data-state={p.until === null ? 'doing' : 'done'}>
            <div className="row spread">
              <span>
                <span aria-hidden="true">{p.until === null ? '…' : '✓'}</span>{' '}
                <span className="wrap-anywhere">{p.until === null ? p.doing : p.done}</span>
              </span>
              <span className="hint">
                {p.until === null
                  ? seconds(now - p.since)
                  : // A browser started before the page opened has no start of its own to count from.
                    p.until > p.since && formatDuration(p.until - p.since)}
              </span>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
