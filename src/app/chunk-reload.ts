/**
 * After an upgrade the old page asks for chunks the server no longer has: the import fails with
 * "Failed to fetch dynamically imported module" (Chromium), "error loading dynamically imported
 * module" (Firefox) or "Importing a module script failed" (Safari). A reload fetches the new
 * index.html and its chunks. Once per page address a minute, so a chunk that is really broken
 * shows its error instead of reloading forever.
 */
const STALE_CHUNK =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;
const KEY = 'browserdesk.chunkReload';
const WINDOW_MS = 60_000;

export function isStaleChunkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return STALE_CHUNK.test(message);
}

/** Whether to reload for `href` now, given the last reload recorded (`last`: JSON or null). */
export function shouldReload(last: string | null, href: string, now: number): boolean {
  try {
    const prev = last ? (JSON.parse(last) as { href?: unknown; at?: unknown }) : null;
    return !(prev && prev.href === href && typeof prev.at === 'number' && now - prev.at < WINDOW_MS);
  } catch {
    return true;
  }
}

let reloading = false;

/** Reload for a stale chunk when that has not just been tried for this address; true when reloading. */
export function reloadForStaleChunk(error: unknown): boolean {
  if (!isStaleChunkError(error)) return false;
  // Asked again (StrictMode, a second failed import) while the reload is under way.
  if (reloading) return true;
  const href = window.location.href;
  const now = Date.now();
  try {
    if (!shouldReload(sessionStorage.getItem(KEY), href, now)) return false;
    sessionStorage.setItem(KEY, JSON.stringify({ href, at: now }));
  } catch {
    return false;
  }
  reloading = true;
  window.location.reload();
  return true;
}
