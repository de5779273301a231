import { Link } from 'react-router';
import { describeStep } from '../../components/steps/describe-step.ts';
import { WithPlaceholders } from '../../components/steps/WithPlaceholders.tsx';

/** The steps the agent recorded so far (saved as the workflow as they come), with the workflow's links. */
export function RecordedSteps({
  steps,
  workflowId,
  loading,
}: {
  steps: readonly unknown[];
  workflowId: string | undefined;
  loading: boolean;
}) {
  const views = steps.map((s, i) => describeStep(s, i));
  return (
    <section className="card agent-steps" aria-labelledby="agent-steps-title">
      <div className="row spread">
        <h2 id="agent-steps-title">Recorded steps</h2>
        {workflowId && (
          <div className="row">
            <Link className="button secondary small" to={`/workflows/${workflowId}`}>
              Open workflow
            </Link>
            <Link className="button secondary small" to={`/run?workflow=${workflowId}`}>
              Run it
            </Link>
          </div>
        )}
      </div>
      {views.length === 0 && loading ? (
        <p className="status">Loading the steps…</p>
      ) : views.length === 0 ? (
        <p className="hint">
          None yet. Each browser action the agent completes becomes a step here, and the workflow replays them without a
          model.
        </p>
      ) : (
        <ol className="steps agent-step-list" aria-live="polite" aria-relevant="additions">
          {views.map((s) => (
            <li key={s.index} data-kind={s.kind}>
              <WithPlaceholders text={s.words} />
              {s.selector && (
                <>
                  {' '}
                  <code className="wrap-anywhere">{s.selector}</code>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
