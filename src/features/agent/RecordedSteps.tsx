import { Link } from 'react-router';
import type { AgentState } from '../../../contract/agent.ts';
import { describeStep } from '../workflows/flow-steps.ts';
import { WithPlaceholders } from '../workflows/StepList.tsx';

/** The steps the agent recorded so far (saved as the workflow as they come), with the workflow's links. */
export function RecordedSteps({ state }: { state: AgentState | undefined }) {
  const steps = state?.steps.map((s, i) => describeStep(s, i)) ?? [];
  return (
    <section className="card agent-steps" aria-labelledby="agent-steps-title">
      <div className="row spread">
        <h2 id="agent-steps-title">Recorded steps</h2>
        {state && (
          <div className="row">
            <Link className="button secondary small" to={`/workflows/${state.workflow_id}`}>
              Open workflow
            </Link>
            <Link className="button secondary small" to={`/run?workflow=${state.workflow_id}`}>
              Run it
            </Link>
          </div>
        )}
      </div>
      {!state ? (
        <p className="status">Loading the steps…</p>
      ) : steps.length === 0 ? (
        <p className="hint">
          None yet. Each browser action the agent completes becomes a step here, and the workflow replays them without a
          model.
        </p>
      ) : (
        <ol className="steps agent-step-list" aria-live="polite" aria-relevant="additions">
          {steps.map((s) => (
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
