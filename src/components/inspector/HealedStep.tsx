import { Link, useInRouterContext } from 'react-router';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { errorMessage } from '../../api/errors.ts';
import { useApplyHealedSelectors } from '../../api/workflows/apply-healed-selectors.ts';

type StepHealed = Extract<SessionEvent, { event: 'StepHealed' }>;

const SHOWN_CHARS = 80;

/** One Recorder selector for people: a chain (frames, shadow roots) joined by ›. */
export function selectorText(selector: unknown): string {
  if (Array.isArray(selector)) return selector.map(selectorText).join(' › ');
  return typeof selector === 'string' ? selector : JSON.stringify(selector);
}

export function truncate(text: string, max = SHOWN_CHARS): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

function SelectorList({ label, selectors }: { label: string; selectors: readonly unknown[] }) {
  return (
    <>
      <p>{label}</p>
      <ul style={{ margin: 0 }}>
        {selectors.map((s, i) => (
          <li key={i}>
            <code>{selectorText(s)}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

function WorkflowLink({ id, children }: { id: string; children: string }) {
  const to = `/workflows/${encodeURIComponent(id)}`;
  // The log is also shown outside the app's router (tests, embeds): a plain link there.
  return useInRouterContext() ? <Link to={to}>{children}</Link> : <a href={to}>{children}</a>;
}

/** A StepHealed event: what the model changed, and the button that keeps it in the saved workflow. */
export function HealedStep({ event }: { event: StepHealed }) {
  const apply = useApplyHealedSelectors();
  const result = apply.data;
  const oldFirst = selectorText(event.old_selectors[0] ?? '');
  const newFirst = selectorText(event.new_selectors[0] ?? '');
  const applied = result?.outcome === 'applied';
  const label = apply.isPending ? 'Applying to workflow…' : applied ? 'Applied to workflow' : 'Apply to workflow';
  return (
    <div className="healed">
      <p>
        <code title={oldFirst}>{truncate(oldFirst)}</code> → <code title={newFirst}>{truncate(newFirst)}</code>
      </p>
      <details>
        <summary>All selectors of step {event.step}</summary>
        <SelectorList label="Before (none matched):" selectors={event.old_selectors} />
        <SelectorList label="Found by the model:" selectors={event.new_selectors} />
      </details>
      <button
        type="button"
        className="secondary"
        disabled={apply.isPending || applied}
        aria-label={`${label} (step ${event.step})`}
        onClick={() => apply.mutate(event)}
      >
        {label}
      </button>
      <div role="status" aria-live="polite">
        {result?.outcome === 'applied' && <p>Applied: step {event.step} now uses the healed selectors.</p>}
        {result?.outcome === 'changed' && (
          <p>
            The workflow&apos;s step {event.step} has changed since this run;{' '}
            <WorkflowLink id={event.workflow_id}>open the workflow to edit it</WorkflowLink>.
          </p>
        )}
        {result?.outcome === 'gone' && <p>The workflow was deleted: there is nothing to apply the selectors to.</p>}
      </div>
      {apply.isError && (
        <p role="alert" className="field-error">
          Could not apply the selectors: {errorMessage(apply.error)}
        </p>
      )}
    </div>
  );
}
