import fs from 'node:fs';
import path from 'node:path';

/** A session's artifacts as retention sees them. */
export interface Held {
  sessionId: string;
  bytes: number;
  /** When the session ended (its folder's last change when the session is unknown); null while it is live. */
  endedAt: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Bytes under `dir`, not following links (our own folder, but counted as the disk sees it). */
export function folderBytes(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += folderBytes(p);
    else {
      try {
        total += fs.lstatSync(p).size;
      } catch {
        // removed meanwhile
      }
    }
  }
  return total;
}

/** Every session folder under `root` with its size and end, `endOf` telling live (null) from ended. */
export async function heldUnder(
  root: string,
  endOf: (sessionId: string) => Promise<Date | null | undefined>,
): Promise<Held[]> {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  const held: Held[] = [];
  for (const name of names) {
    if (!UUID.test(name)) continue;
    const dir = path.join(root, name);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      continue;
    }
    if (!st.isDirectory()) continue;
    const ended = await endOf(name);
    held.push({ sessionId: name, bytes: folderBytes(dir), endedAt: ended === undefined ? st.mtime : ended });
  }
  return held;
}

/**
 * Which sessions' artifacts go: first those older than the age limit, then the oldest ended until
 * the rest fit under the byte limit. Never a live session's, nor one that ended within `graceMs`
 * (its recording may still be being finished). A limit of 0 is no limit.
 */
export function chooseExpired(
  held: Held[],
  limits: { maxBytes: number; ttlMs: number; graceMs: number },
  now = Date.now(),
): string[] {
  const removable = held
    .filter((h): h is Held & { endedAt: Date } => h.endedAt !== null && now - h.endedAt.getTime() >= limits.graceMs)
    .sort((a, b) => a.endedAt.getTime() - b.endedAt.getTime() || a.sessionId.localeCompare(b.sessionId));
  const gone = new Set<string>();
  if (limits.ttlMs > 0) for (const h of removable) if (now - h.endedAt.getTime() > limits.ttlMs) gone.add(h.sessionId);
  if (limits.maxBytes > 0) {
    let total = held.filter((h) => !gone.has(h.sessionId)).reduce((n, h) => n + h.bytes, 0);
    for (const h of removable) {
      if (total <= limits.maxBytes) break;
      if (gone.has(h.sessionId)) continue;
      gone.add(h.sessionId);
      total -= h.bytes;
    }
  }
  return [...gone];
}
