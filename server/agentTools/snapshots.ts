import { randomBytes } from 'node:crypto';
import { slices } from '../domain/slices.ts';
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
  /** What part of the page it shows, when not all of it (for the answer's header): `of "form#x", interactive elements only`. */
  scope?: string;
}

/** Which part of the page a snapshot takes, and whether only what an agent can act on. */
export interface SnapshotScope {
  /** A CSS selector: the snapshot of the first element it matches (and what is inside it). */
  selector?: string;
  interactiveOnly?: boolean;
  /** Only this many levels from the top (Playwright's own `depth`). */
  depth?: number;
}

/**
 * A hang guard, not a budget: a heavy page (5,000 links) takes 2 s alone and several times that on
 * a busy host, where a 15 s limit failed most calls that a client made back to back. The walk is
 * Playwright's and cannot be cut short, so what keeps answers prompt is that concurrent calls for
 * the same page share one walk (see `take`).
 */
const SNAPSHOT_TIMEOUT_MS = 60_000;
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

/**
 * Roles an agent acts on (click, type, check, choose, drag): with `interactive_only`, a line of
 * one of them is kept when it has a ref (a ref is what browser_click and the like take).
 */
const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'slider',
  'spinbutton',
  'switch',
  'treeitem',
]);
/**
 * Kept with `interactive_only` too, ref or not: headings, which say which part of the page a
 * control is in (a form's "Billing address" vs "Shipping address") for a line each, and options,
 * the choices browser_select_option takes (a select's options carry no ref). Landmarks and the
 * rest are left out: headings name the parts well enough on most pages, and every line kept
 * costs the agent tokens. A link's `/url` stays under its link: where it goes.
 */
const CONTEXT_ROLES = new Set(['heading', 'option']);
/** A line's indent and its role: the key's first word (`- button "Send"`, `- 'checkbox "A: b"'`, `- /url: …`). */
const LINE_ROLE = /^( *)- '?(\/?[a-z]+)/;

/**
 * The lines of an AI snapshot an agent can act on, re-indented under the kept lines they were
 * nested in so the answer stays a tree, with the refs of those lines only. The role is read from
 * the key's first word, which Playwright writes, not the page; `refs[i]` are the refs tagRefs
 * found in line i's key part, so a page's text cannot make a line count as one with a ref.
 */
function interactiveLines(lines: string[], refs: Set<string>[]): { lines: string[]; refs: Set<string> } {
  const out: { depth: number; text: string }[] = [];
  const kept = new Set<string>();
  const stack: { indent: number; kept: boolean }[] = [];
  lines.forEach((line, i) => {
    const m = LINE_ROLE.exec(line);
    const indent = m ? m[1]!.length : line.length - line.trimStart().length;
    while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
    const role = m?.[2] ?? '';
    const keep =
      (INTERACTIVE_ROLES.has(role) && refs[i]!.size > 0) ||
      CONTEXT_ROLES.has(role) ||
      (role === '/url' && stack.at(-1)?.kept === true);
    const depth = stack.filter((s) => s.kept).length;
    stack.push({ indent, kept: keep });
    if (!keep) return;
    out.push({ depth, text: line.trimStart() });
    for (const r of refs[i]!) kept.add(r);
  });
  return {
    // A line whose children were all left out no longer ends with the colon that opened them.
    lines: out.map(({ depth, text }, k) => {
      const childless = (out[k + 1]?.depth ?? -1) <= depth;
      return '  '.repeat(depth) + (childless && text.endsWith(':') ? text.slice(0, -1) : text);
    }),
    refs: kept,
  };
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
  /** The snapshot being taken of each session's page, by what it takes: a call asking the same joins it. */
  private readonly taking = new Map<string, { page: Page; key: string; snapshot: Promise<Snapshot> }>();

  /**
   * A new snapshot of the page. A call made while one of the same page and scope is being taken
   * answers with that one: the page's renderer walks its tree one call at a time, so twenty
   * concurrent calls on a heavy page would otherwise queue twenty walks, the last waiting for all.
   */
  take(sessionId: string, page: Page, scope: SnapshotScope = {}): Promise<Snapshot> {
    const key = JSON.stringify([scope.selector, scope.interactiveOnly, scope.depth]);
    const current = this.taking.get(sessionId);
    if (current && current.page === page && current.key === key) return current.snapshot;
    const snapshot = this.walk(sessionId, page, scope).finally(() => {
      if (this.taking.get(sessionId)?.snapshot === snapshot) this.taking.delete(sessionId);
    });
    this.taking.set(sessionId, { page, key, snapshot });
    return snapshot;
  }

  private async walk(sessionId: string, page: Page, scope: SnapshotScope): Promise<Snapshot> {
    const depth = scope.depth !== undefined ? { depth: scope.depth } : {};
    const yaml = scope.selector
      ? await this.ofSelector(page, scope.selector, depth)
      : await page.ariaSnapshot({ mode: 'ai', timeout: SNAPSHOT_TIMEOUT_MS, ...depth });
    const tag = newTag();
    const lineRefs: Set<string>[] = [];
    // A 3 MB page is tens of thousands of lines: tagged in slices, so other requests are answered meanwhile.
    const clock = slices();
    let lines: string[] = [];
    for (const line of yaml.split('\n')) {
      await clock.breathe();
      const found = new Set<string>();
      lineRefs.push(found);
      lines.push(tagRefs(line, tag, found));
    }
    let refs = new Set(lineRefs.flatMap((r) => [...r]));
    if (scope.interactiveOnly) ({ lines, refs } = interactiveLines(lines, lineRefs));
    const scopes = [
      ...(scope.selector ? [`of ${JSON.stringify(scope.selector.slice(0, 200))}`] : []),
      ...(scope.interactiveOnly ? ['interactive elements only'] : []),
      ...(scope.depth !== undefined ? [`${scope.depth} levels deep`] : []),
    ];
    const snapshot: Snapshot = {
      sessionId,
      tag,
      url: page.url(),
      title: await page.title().catch(() => ''),
      // No line kept (a page with nothing to act on) is still an answer, not an empty YAML block.
      lines: lines.length ? lines : ['# nothing here'],
      refs,
      ...(scopes.length ? { scope: scopes.join(', ') } : {}),
    };
    this.latest.set(sessionId, snapshot);
    return snapshot;
  }

  /**
   * The AI snapshot of the first element a CSS selector matches. Playwright's `aria-ref=` locator
   * then resolves the refs of this snapshot (it keeps the frame's latest one, whatever its root),
   * and refs are numbered per element, not per snapshot, so they are those of a whole-page one.
   */
  private async ofSelector(page: Page, selector: string, depth: { depth?: number }): Promise<string> {
    try {
      // `css=`: only a CSS selector, not Playwright's other engines (xpath=, text=, aria-ref=).
      return await page
        .locator(`css=${selector}`)
        .first()
        .ariaSnapshot({ mode: 'ai', timeout: SNAPSHOT_TIMEOUT_MS, ...depth });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const quoted = JSON.stringify(selector.slice(0, 200));
      if (/does not match any element/.test(message))
        throw new ToolError(
          `selector ${quoted} matches no element on the page: take a snapshot without selector to see the page`,
        );
      if (/while parsing (css )?selector|is not a valid selector|Unexpected token/i.test(message))
        throw new ToolError(`selector ${quoted} is not a valid CSS selector`);
      throw err;
    }
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
    throw new ToolError(
      `${what} is stale: the page changed, another tab was selected, or a newer snapshot was taken since. Take a new snapshot`,
    );
  }

  /** The session's latest snapshot, if it has one (browser_find searches it). */
  latestOf(sessionId: string): Snapshot | undefined {
    return this.latest.get(sessionId);
  }

  /** The line of the session's latest snapshot that carries this ref (its role and name), if any. */
  lineOf(sessionId: string, ref: string): string | undefined {
    return this.latest.get(sessionId)?.lines.find((line) => line.includes(`[ref=${ref}]`));
  }

  /** The page changed (navigation) or the session ended: its refs point at nothing now. */
  forget(sessionId: string): void {
    this.latest.delete(sessionId);
    this.taking.delete(sessionId);
  }
}
