import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { STEP_TEMPLATES, type StepTemplate } from './step-templates.ts';

/**
 * "Add step": a button that opens the list of step kinds (go to, click, type, …), each a button.
 * Opening puts the focus on the first choice; the arrow keys move between the choices, Escape
 * closes the list and gives the focus back to the button. A choice closes it and is handed to
 * `onAdd`, which adds the step and moves the focus into it. The list's end has one; each step has
 * a small one of its own (`small`, named by `name`) that adds after that step. Whether it is open
 * is its owner's (`open`, `onOpenChange`), so that one menu at most is open: an open menu of a step
 * that an insertion moved would add after another step than the one it was opened on.
 */
export function AddStepMenu({
  onAdd,
  open,
  onOpenChange: setOpen,
  text = 'Add step',
  name,
  small = false,
}: {
  onAdd: (template: StepTemplate) => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button's words. */
  text?: string;
  /** Its accessible name, when the words alone do not say where the step goes. */
  name?: string;
  small?: boolean;
}) {
  const id = useId();
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
    <div className={small ? 'add-step add-step-after' : 'add-step'} onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        className={small ? 'secondary small' : 'secondary'}
        aria-label={name}
        aria-expanded={open}
        aria-controls={`${id}-choices`}
        onClick={() => setOpen(!open)}
      >
        {text}
      </button>
      {open && (
        <ul id={`${id}-choices`} ref={choices} className="add-step-choices" aria-label="Step to add">
          {STEP_TEMPLATES.map((t, i) => (
            <li key={t.label}>
              <button
                type="button"
                className="secondary"
                aria-label={t.label}
                aria-describedby={`${id}-hint-${i}`}
                onClick={() => {
                  setOpen(false);
                  onAdd(t);
                }}
              >
                <span className="add-step-label">{t.label}</span>
                <span className="add-step-hint" id={`${id}-hint-${i}`}>
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
