import { useEffect, useRef, type RefObject } from 'react';

/** The step (0-based) an address names with `#step-N` (N from 1, as a failed run's link says it). */
export function linkedStepIndex(hash: string): number | undefined {
  const n = /^#step-(\d+)$/.exec(hash)?.[1];
  return n && Number(n) >= 1 ? Number(n) - 1 : undefined;
}

/**
 * The step a link opened the editor at (a failed run's "the workflow editor"): brought into view
 * and focused once the steps are shown, once per address, so editing afterwards is not pulled
 * back to it. Its index, to mark it.
 */
export function useLinkedStep(list: RefObject<HTMLOListElement | null>, stepCount: number): number | undefined {
  // Read as the editor opens (a link's navigation has set it by then); not through the router, so
  // the list works where no router is (its tests).
  const hash = window.location.hash;
  const index = linkedStepIndex(hash);
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    if (index === undefined || index >= stepCount || shownFor.current === hash) return;
    const item = list.current?.children[index];
    if (!(item instanceof HTMLElement)) return;
    shownFor.current = hash;
    item.scrollIntoView({ block: 'center' });
    item.focus({ preventScroll: true });
  }, [hash, index, stepCount, list]);
  return index !== undefined && index < stepCount ? index : undefined;
}
