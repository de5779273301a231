import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long work that grows with a page (counting a snapshot's tokens, tagging its lines, building a
 * HAR) runs before it lets the event loop take other requests. Ten such calls at once on a 3 MB
 * page held /api/healthz for seconds on a loaded host; in slices, a request waits at most about
 * one slice per call under way.
 */
export const SLICE_MS = 8;

/**
 * A clock for one piece of long work: `breathe()` resolves at once while the current slice is
 * young, and after a turn of the event loop (timers, I/O, other requests) once it is SLICE_MS old.
 * Call it between units of work (a line, an entry), awaiting it.
 */
export function slices(): { breathe(): Promise<void> | undefined } {
  let started = performance.now();
  return {
    breathe() {
      if (performance.now() - started < SLICE_MS) return undefined;
      return nextTurn().then(() => {
        started = performance.now();
      });
    },
  };
}
