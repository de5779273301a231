import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { ToolError } from './registry.ts';

/** One snapshot of a session's page: its lines, and the refs in it as Playwright knows them. */
export interface Snapshot {
  sessionId: string;
  /** Six base-36 characters, random: the prefix of every ref and cursor of this snapshot. */
  tag: string;
  url: string;
  title: string;
  lines: string[];
  refs: Set<string>;
}

const SNAPSHOT_TIMEOUT_MS = 15_000;
const REF_IN_SNAPSHOT = /\[ref=([a-z0-9]+)\]/g;
/** A quoted name (with its escapes), or the colon that ends a line's key part. */
const QUOTED_OR_KEY_END = /"(?:[^"\\]|\\.)*"|:(?=\s|$)/g;

/**
 * Tag the refs of one snapshot line. Only the line's key part (`- button "Send" [ref=e5]`, up to
 * the first colon outside quotes) holds Playwright's attributes: what follows, and any quoted name,
 * is the page's own text, where a page could write "[ref=e1]" to pass an agent a ref to something
 * else. That text is left as written, so it names no ref of ours.
 */
function tagRefs(line: string, tag: string, refs: Set<string>): string {
  let keyEnd = line.length;
  const spans: [number, number][] = [];
  for (const m of line.matchAll(QUOTED_OR_KEY_END)) {
    if (m[0] === ':') {
      keyEnd = m.index;
      break;
    }
    spans.push([m.index, m.index + m[0].length]);
  }
  return line.replace(REF_IN_SNAPSHOT, (all, ref: string, at: number) => {
    if (at >= keyEnd || spans.some(([from, to]) => at >= from && at < to)) return all;
    refs.add(ref);
    return `[ref=${tag}-${ref}]`;
  });
}
const OUR_REF = /^([a-z0-9]{6})-([a-z0-9]+)$/;
const CURSOR = /^([a-z0-9]{6}):(\d{1,9})$/;

const newTag = () => {
  let tag = '';
  for (const b of randomBytes(6)) tag += (b % 36).toString(36);
  return tag;
};

/**
 * The latest snapshot of each session, which is what refs are resolved against. Playwright's AI
 * snapshot (`page.ariaSnapshot({ mode: 'ai' })`, public API since 1.5x: YAML with `[ref=e5]`,
 * iframes' contents included as `f1e2`) numbers refs from e1 on every page, so its refs alone
 * could not tell one session's or one snapshot's from another's; each of ours is that ref behind
 * the snapshot's random tag (`k3f9ab-e5`). A ref is good only in the session whose latest
 * snapshot carries its tag, and Playwright's `aria-ref=` locator likewise resolves refs of the
 * latest snapshot only. Navigating forgets the snapshot: its refs point at a page that is gone.
 */
export class SessionSnapshots {
  private readonly latest = new Map<string, Snapshot>();

  async take(sessionId: string, page: Page): Promise<Snapshot> {
    const yaml = await page.ariaSnapshot({ mode: 'ai', timeout: SNAPSHOT_TIMEOUT_MS });
    const tag = newTag();
    const refs = new Set<string>();
    const text = yaml
      .split('\n')
      .map((line) => tagRefs(line, tag, refs))
      .join('\n');
    const snapshot: Snapshot = {
      sessionId,
      tag,
      url: page.url(),
      title: await page.title().catch(() => ''),
      lines: text.split('\n'),
      refs,
    };
    this.latest.set(sessionId, snapshot);
    return snapshot;
  }

  /** The snapshot a cursor continues, and the line it continues at. */
  continued(sessionId: string, cursor: string): { snapshot: Snapshot; from: number } {
    const m = CURSOR.exec(cursor);
    if (!m)
      throw new ToolError(
        `cursor ${JSON.stringify(cursor.slice(0, 100))} is not one browser_snapshot answered with: take a new snapshot (without cursor)`,
      );
    const snapshot = this.ofTag(sessionId, m[1]!, `cursor ${cursor}`);
    const from = Number(m[2]);
    if (from >= snapshot.lines.length)
      throw new ToolError(`cursor ${cursor} is past the end of that snapshot: take a new snapshot`);
    return { snapshot, from };
  }

  /** Playwright's ref for one of ours, if it belongs to this session's latest snapshot. */
  resolve(sessionId: string, ref: string): string {
    const m = OUR_REF.exec(ref);
    if (!m)
      throw new ToolError(
        `ref ${JSON.stringify(ref.slice(0, 100))} is not a ref from browser_snapshot (they look like k3f9ab-e5): take a new snapshot and use a ref from it`,
      );
    const snapshot = this.ofTag(sessionId, m[1]!, `ref ${ref}`);
    if (!snapshot.refs.has(m[2]!))
      throw new ToolError(`ref ${ref} is not in that snapshot: take a new snapshot and use a ref from it`);
    return m[2]!;
  }

  private ofTag(sessionId: string, tag: string, what: string): Snapshot {
    const snapshot = this.latest.get(sessionId);
    if (snapshot?.tag === tag) return snapshot;
    const elsewhere = [...this.latest.values()].some((s) => s.tag === tag);
    if (elsewhere)
      throw new ToolError(
        `${what} comes from another session's snapshot, not session ${sessionId}'s: take a new snapshot of this session`,
      );
    throw new ToolError(`${what} is stale: the page changed or a newer snapshot was taken since. Take a new snapshot`);
  }

  /** The page changed (navigation) or the session ended: its refs point at nothing now. */
  forget(sessionId: string): void {
    this.latest.delete(sessionId);
  }
}
