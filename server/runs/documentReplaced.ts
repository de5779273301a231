/**
 * A document replaced while the run asked it something: a navigation under way, or a page coming
 * back from the back/forward cache (whose nodes the old document's ids no longer resolve). The
 * next document answers, so the question is asked again rather than failing the step.
 */
const DOCUMENT_REPLACED = /Execution context was destroyed|Cannot find context|does not belong to the document/;

/** Runs `ask`, and again (up to `tries` more times, 50 ms apart) while its document is replaced under it. */
export async function againWhenReplaced<T>(ask: () => Promise<T>, tries = 20): Promise<T> {
  for (let left = tries; ; left--) {
    try {
      return await ask();
    } catch (err) {
      if (left <= 0 || !DOCUMENT_REPLACED.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
