import { useEffect, useId, useRef, type ReactNode } from 'react';

/** A modal confirmation on the native <dialog> (focus is trapped and Escape cancels). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  // Unique per dialog: a page may hold more than one (Settings has two).
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      d.showModal?.();
      // showModal focuses the first button (the destructive one); the safe choice takes focus instead.
      cancel.current?.focus();
    }
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={props.onCancel} onClose={props.onCancel}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
      <div className="row">
        <button type="button" className="danger" onClick={props.onConfirm} disabled={props.busy}>
          {props.busy ? 'Working…' : props.confirmLabel}
        </button>
        <button ref={cancel} type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
