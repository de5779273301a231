import { useState } from 'react';

/** What of a TanStack mutation a removal uses. */
interface Removal<V> {
  mutate(variables: V, options: { onSuccess(): void; onSettled(): void }): void;
  isPending: boolean;
}

/**
 * A removal (delete, revoke) that waits for a yes in a ConfirmDialog: `ask(item)` opens the dialog
 * about `target`, `dialog` is its open, busy, cancel and confirm; it closes once the removal settles,
 * and `onRemoved` hears of a removal that went through.
 */
export function useConfirmedRemoval<T, V>(
  removal: Removal<V>,
  variablesOf: (target: T) => V,
  onRemoved?: (target: T) => void,
) {
  const [target, setTarget] = useState<T | null>(null);
  const close = () => setTarget(null);
  const dialog = {
    open: target !== null,
    busy: removal.isPending,
    onCancel: close,
    onConfirm: () => {
      if (target === null) return;
      removal.mutate(variablesOf(target), { onSuccess: () => onRemoved?.(target), onSettled: close });
    },
  };
  return { target, ask: setTarget, dialog };
}
