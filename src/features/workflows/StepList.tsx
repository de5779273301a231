import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { credentialOf } from '../../../contract/placeholders.ts';
import { parseFlowText, type LineIssue } from './flow-text.ts';
import { splitPlaceholders, stepsOf, type StepView } from '../../components/steps/describe-step.ts';
import { WithPlaceholders } from '../../components/steps/WithPlaceholders.tsx';
import { insertSteps, deleteStep, moveStep, setFlowValue, setStepKey, stepAtLine } from './flow-steps.ts';
import { useLinkedStep } from './use-linked-step.ts';
import { AddStepMenu } from './AddStepMenu.tsx';
import type { StepTemplate } from './step-templates.ts';
import './workflows.css';

/** What a field's placeholders are, in words, under its input. */
function placeholderNote(value: string): string | null {
  const names = splitPlaceholders(value).flatMap((p) => (p.placeholder === undefined ? [] : [p.placeholder]));
  if (!names.length) return null;
  return names
    .map((n) => (credentialOf(n) !== undefined ? `the stored credential ${credentialOf(n)!}` : `the variable ${n}`))
    .join(', ');
}

interface Deleted {
  before: string;
  after: string;
  what: string;
}

/**
 * The flow's steps in words beside its JSON, which stays the source of truth: every change here
 * (a value, the order, a deletion) rewrites only that part of the text, and an edit in the JSON
 * shows here at once. A step's values are edited in place; its selector is shown as written.
 */
export function StepList({
  text,
  onChange,
  issues = [],
}: {
  text: string;
  onChange: (text: string) => void;
  issues?: LineIssue[];
}) {
  const steps = useMemo(() => stepsOf(parseFlowText(text).value), [text]);
  // The editor's problems, each under the step whose lines it points at.
  const problems = useMemo(() => {
    const byStep = new Map<number, string[]>();
    for (const issue of issues) {
      const at = stepAtLine(text, issue.line);
      if (at !== undefined) byStep.set(at, [...(byStep.get(at) ?? []), issue.message]);
    }
    return byStep;
  }, [issues, text]);
  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const undoButton = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const linked = useLinkedStep(list, steps?.length ?? 0);
  // After a move, focus follows the step to its new place (the other button when it reached an end).
  const [focusAfterMove, setFocusAfterMove] = useState<{ index: number; dir: 'up' | 'down' } | null>(null);

  useEffect(() => {
    if (!focusAfterMove || !list.current) return;
    const { index, dir } = focusAfterMove;
    const item = list.current.children[index];
    const wanted =
      item?.querySelector<HTMLButtonElement>(`button[data-move='${dir}']:not(:disabled)`) ??
      item?.querySelector<HTMLButtonElement>('button[data-move]:not(:disabled)');
    wanted?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove, steps]);

  // A step just added: its first input (the selector, when it has one) takes the focus once the list shows it.
  const [focusAdded, setFocusAdded] = useState<number | null>(null);
  useEffect(() => {
    if (focusAdded === null) return;
    const input = list.current?.children[focusAdded]?.querySelector('input');
    if (!input) return;
    input.focus(); // and the browser scrolls it into view
    setFocusAdded(null);
  }, [focusAdded, steps]);

  const undoable = deleted && deleted.after === text ? deleted : null;
  useEffect(() => {
    if (undoable) undoButton.current?.focus();
  }, [undoable]);

  const move = (s: StepView, by: -1 | 1) => {
    onChange(moveStep(text, s.index, by));
    setFocusAfterMove({ index: s.index + by, dir: by < 0 ? 'up' : 'down' });
  };
  /** The one Add step menu open: a step's (by index), the list end's, or none. */
  const [menu, setMenu] = useState<number | 'end' | null>(null);
  const menuProps = (at: number | 'end') => ({
    open: menu === at,
    onOpenChange: (open: boolean) => setMenu(open ? at : null),
  });
  /** Add a template's steps after step `after`, or after the last one. */
  const add = (template: StepTemplate, after?: number) => {
    setMenu(null);
    onChange(insertSteps(text, template.steps, after));
    setFocusAdded(after === undefined ? (steps?.length ?? 0) : after + 1);
  };
  const remove = (s: StepView) => {
    const after = deleteStep(text, s.index);
    setDeleted({ before: text, after, what: `Step ${s.index + 1} (${s.words}${s.selector ? ` ${s.selector}` : ''})` });
    onChange(after);
  };

  return (
    <section className="card flow-step-list" aria-labelledby="flow-step-list-title">
      <h2 id="flow-step-list-title">{steps ? `Steps · ${steps.length}` : 'Steps'}</h2>
      <p className="hint">
        Each step of the flow in words. Changes here are written into the JSON, and changes there show here.
      </p>
      {undoable && (
        <div className="notice row spread" role="status">
          <span>{undoable.what} deleted.</span>
          <button
            ref={undoButton}
            type="button"
            className="secondary small"
            onClick={() => {
              onChange(undoable.before);
              setDeleted(null);
            }}
          >
            Undo
          </button>
        </div>
      )}
      {steps === null ? (
        <p className="status">The steps show here when the flow is valid JSON with a &quot;steps&quot; list.</p>
      ) : steps.length === 0 ? (
        <div className="flow-steps-empty">
          <p className="status">
            No steps yet. Add them one by one with Add step, let the agent record them as it works in a live browser (it
            saves a new workflow), or import a flow recorded in Chrome&apos;s Recorder.
          </p>
          <Link className="button secondary" to="/agent">
            Record with the agent
          </Link>
        </div>
      ) : (
        <ol ref={list} className="flow-steps">
          {steps.map((s) => (
            <li
              key={s.index}
              className={`flow-step flow-step-${s.kind}${problems.has(s.index) ? ' has-problem' : ''}`}
              tabIndex={linked === s.index ? -1 : undefined}
              aria-current={linked === s.index ? 'step' : undefined}
            >
              <div className="flow-step-line">
                <span className="flow-step-number" aria-hidden="true">
                  {s.index + 1}
                </span>
                <p className="flow-step-words">
                  <span className="visually-hidden">Step {s.index + 1}: </span>
                  <WithPlaceholders text={s.words} />
                  {s.selector && (
                    <>
                      {' '}
                      <code
                        className="flow-step-selector"
                        title={
                          s.otherSelectors
                            ? `${s.otherSelectors} more selector${s.otherSelectors > 1 ? 's' : ''} to try if this one finds nothing`
                            : undefined
                        }
                      >
                        {s.selector}
                      </code>
                      {s.otherSelectors > 0 && <span className="flow-step-more"> (or {s.otherSelectors} more)</span>}
                    </>
                  )}
                </p>
              </div>
              {problems.has(s.index) && (
                <ul className="flow-step-problems" aria-label={`Problems in step ${s.index + 1}`}>
                  {problems.get(s.index)!.map((m, i) => (
                    <li key={i}>{m}</li>
                  ))}
                </ul>
              )}
              {(s.selectorField ? [s.selectorField, ...s.fields] : s.fields).map((f) => {
                const id = `step-${s.index}-${f.path.slice(2).join('-')}`;
                const note = placeholderNote(f.value);
                return (
                  <div key={id} className="flow-step-field">
                    <label htmlFor={id}>
                      <span className="visually-hidden">Step {s.index + 1}</span> {f.label}
                    </label>
                    <input
                      id={id}
                      value={f.value}
                      spellCheck={false}
                      autoComplete="off"
                      aria-describedby={note ? `${id}-uses` : undefined}
                      onChange={(e) =>
                        onChange(
                          f.path.at(-1) === 'key'
                            ? setStepKey(text, s.index, e.target.value)
                            : setFlowValue(text, f.path, e.target.value),
                        )
                      }
                    />
                    {note && (
                      <p className="hint" id={`${id}-uses`}>
                        Uses {note}.
                      </p>
                    )}
                  </div>
                );
              })}
              <div className="row flow-step-actions">
                <button
                  type="button"
                  className="secondary small"
                  data-move="up"
                  aria-label={`Move step ${s.index + 1} up`}
                  disabled={s.index === 0}
                  onClick={() => move(s, -1)}
                >
                  ↑ Up
                </button>
                <button
                  type="button"
                  className="secondary small"
                  data-move="down"
                  aria-label={`Move step ${s.index + 1} down`}
                  disabled={s.index === steps.length - 1}
                  onClick={() => move(s, 1)}
                >
                  ↓ Down
                </button>
                <button
                  type="button"
                  className="secondary small danger-quiet"
                  aria-label={`Delete step ${s.index + 1}`}
                  onClick={() => remove(s)}
                >
                  Delete
                </button>
                <AddStepMenu
                  {...menuProps(s.index)}
                  small
                  text="+ Step after"
                  name={`Add a step after step ${s.index + 1}`}
                  onAdd={(template) => add(template, s.index)}
                />
              </div>
            </li>
          ))}
        </ol>
      )}
      {steps !== null && <AddStepMenu {...menuProps('end')} onAdd={(template) => add(template)} />}
    </section>
  );
}
