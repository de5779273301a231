import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { STEP_TEMPLATES, type StepTemplate } from './step-templates.ts';

/**
 * "Add step": a button that opens the list of step kinds (go to, click, type, …), each a button.
 * Opening puts the focus on the first choice; the arrow keys move between the choices, Escape
 * closes the list and gives the focus back to "Add step". A choice closes it and is handed to
 * `onAdd`, which adds the step and moves the focus into it.
 */
export function AddStepMenu({ onAdd }: { onAdd: (template: StepTemplate) => void }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const choices = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (open) choices.current?.querySelector('button')?.focus();
  }, [open]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
      toggle.current?.focus();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = [...(choices.current?.querySelectorAll('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    e.preventDefault();
    buttons[(at + (e.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length]!.focus();
  };

  return (
    <div className="add-step" onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        className="secondary"
        aria-expanded={open}
        aria-controls="add-step-choices"
        onClick={() => setOpen(!open)}
      >
        Add step
      </button>
      {open && (
        <ul id="add-step-choices" ref={choices} className="add-step-choices" aria-label="Step to add">
          {STEP_TEMPLATES.map((t, i) => (
            <li key={t.label}>
              <button
                type="button"
                className="secondary"
                aria-label={t.label}
                aria-describedby={`add-step-hint-${i}`}
                onClick={() => {
                  setOpen(false);
                  onAdd(t);
                }}
              >
                <span className="add-step-label">{t.label}</span>
                <span className="add-step-hint" id={`add-step-hint-${i}`}>
                  {t.hint}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
