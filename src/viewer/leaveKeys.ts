import { tabbable } from 'tabbable';
import { isLeaveChord } from './leaveChord.ts';

/**
 * Move focus to where Tab would have gone from the end of `region`: the first tabbable element after
 * it. With none (an embed page alone in its frame), `fallback` takes focus, so the next Tab leaves
 * the page for its parent.
 */
export function focusAfter(region: HTMLElement, fallback: HTMLElement): void {
  const next = tabbable(region.ownerDocument.body).find(
    (el) => !region.contains(el) && Boolean(region.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING),
  );
  (next ?? fallback).focus();
}

/**
 * Watch the keys on their way to noVNC's canvas (a capture listener on an ancestor runs first). The
 * chord's last key is kept from noVNC; the keys of the chord noVNC has already sent down are released
 * on the remote side with synthetic keyups (noVNC releases keys only when the window loses focus),
 * then `onLeave` moves focus. Returns a function that stops watching.
 */
export function watchLeaveChord(ancestor: HTMLElement, onLeave: () => void): () => void {
  const held = new Map<string, string>(); // code → key, as noVNC saw them go down
  const down = (e: KeyboardEvent) => {
    if (!isLeaveChord(e)) {
      held.set(e.code, e.key);
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    const target = e.target instanceof HTMLElement ? e.target : null;
    for (const [code, key] of held)
      target?.dispatchEvent(new KeyboardEvent('keyup', { key, code, bubbles: true, cancelable: true }));
    held.clear();
    onLeave();
  };
  const up = (e: KeyboardEvent) => {
    held.delete(e.code);
  };
  ancestor.addEventListener('keydown', down, true);
  ancestor.addEventListener('keyup', up, true);
  return () => {
    ancestor.removeEventListener('keydown', down, true);
    ancestor.removeEventListener('keyup', up, true);
  };
}
