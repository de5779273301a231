import type { Locator, Page } from 'playwright-core';

/**
 * Chrome Recorder style selectors for the element an agent acted on, so the step replays with
 * @puppeteer/replay without a model. Each selector is a chain (string[]): one part for an element
 * of the document, one per shadow root crossed otherwise (the replay joins parts with `>>>>`, which
 * looks inside the previous part's shadow root).
 *
 * Shadow DOM: aria/ and text/ pierce it by themselves (the accessibility tree and Puppeteer's text
 * query are flat), CSS becomes a chain of per-root paths, and xpath is left out (it stops at shadow
 * roots). Iframes: selectors are relative to the element's own document (a replayed step targets
 * that frame through its `frame` indexes, see stepRecorder.ts); aria is left out there, since its
 * check below queries the top page only.
 */

/** What a step needs to know about its element, read before the agent's action changes it. */
export interface ElementFacts {
  /** Best first; each resolves to this element alone. */
  selectors: string[][];
  /** The element's centre, from its box's top left: where Playwright clicked it (Recorder's offsetX/Y). */
  offsetX: number;
  offsetY: number;
  kind: 'check' | 'select' | 'text' | 'other';
  checked: boolean;
  /** A select's options: the agent may name one by value or by label. */
  options: { value: string; label: string }[];
  /** In an iframe rather than the top document. */
  inFrame: boolean;
}

export const TEXT_MAX_CHARS = 64;

/**
 * Chromium's computed role where Playwright's aria snapshot spells it differently: puppeteer's
 * aria/ handler asks Chromium (Accessibility.queryAXTree), which calls an <img> "image".
 */
const CHROMIUM_ROLE: Record<string, string> = { img: 'image' };

/** Role and name from the first line of an aria snapshot, e.g. `- link "More information..."`. */
export function roleAndName(snapshot: string): { role: string; name: string } | undefined {
  let key = (snapshot.split('\n')[0] ?? '').replace(/^- /, '');
  // A key YAML had to quote comes single-quoted, its own quotes doubled.
  if (key.startsWith("'")) key = key.slice(1, findEnd(key)).replaceAll("''", "'");
  const m = /^([a-z]+) ("(?:[^"\\]|\\.)*")/.exec(key);
  if (!m) return undefined;
  const name = JSON.parse(m[2]!) as string;
  return name.trim() ? { role: m[1]!, name } : undefined;
}

/** Index of the quote that closes a single-quoted YAML scalar starting at 0. */
function findEnd(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s[i] !== "'") continue;
    if (s[i + 1] === "'") i++;
    else return i;
  }
  return s.length;
}

/** `aria/Name[role="role"]` when Playwright finds this element alone under that role and exact name. */
async function ariaSelector(target: Locator, page: Page, line?: string): Promise<string | undefined> {
  const found = roleAndName(line?.trim() ?? (await target.ariaSnapshot({ timeout: 5_000 })));
  // A name that itself reads like an attribute would be taken apart by puppeteer's aria parser.
  if (!found || /\[\s*\w+\s*=/.test(found.name)) return undefined;
  const byRole = page.getByRole(found.role as Parameters<Page['getByRole']>[0], { name: found.name, exact: true });
  const [all, same] = await Promise.all([byRole.count(), target.and(byRole).count()]);
  if (all !== 1 || same !== 1) return undefined;
  return `aria/${found.name}[role="${CHROMIUM_ROLE[found.role] ?? found.role}"]`;
}

/** What the page works out about the element, in one evaluate. */
export interface InPage extends Omit<ElementFacts, 'selectors'> {
  css: string[][];
  /** CSS chains first (id, then path), then xpath and text/, in Recorder's order. */
  rest: string[];
}

/**
 * Runs in the page (the recorder's page script uses it too, server/recorder/pageScript.ts). Helpers are object methods, not named functions or arrows: tsx (which runs
 * the server) compiles with keepNames, which wraps those in a `__name` call the page lacks.
 */
export function inPage(el: Element, textMax: number): InPage {
  const h = {
    uniqueIn(root: Document | ShadowRoot, sel: string, want: Element): boolean {
      try {
        const all = root.querySelectorAll(sel);
        return all.length === 1 && all[0] === want;
      } catch {
        return false;
      }
    },
    safeId(e: Element): string | undefined {
      return e.id && CSS.escape(e.id) === e.id ? `#${e.id}` : undefined;
    },
    /** `#id`, else tag:nth-of-type steps up to a uniquely id'd ancestor or the root. */
    cssPath(e: Element, root: Document | ShadowRoot, useOwnId: boolean): string {
      const parts: string[] = [];
      for (let cur: Element | null = e; cur; cur = cur.parentElement) {
        const id = h.safeId(cur);
        if (id && (cur !== e || useOwnId) && h.uniqueIn(root, id, cur)) {
          parts.unshift(id);
          break;
        }
        const tag = CSS.escape(cur.localName);
        const same = cur.parentElement
          ? [...cur.parentElement.children].filter((c) => c.localName === cur!.localName)
          : [cur];
        parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(cur) + 1})` : tag);
      }
      return parts.join(' > ');
    },
    xpath(e: Element): string | undefined {
      const parts: string[] = [];
      for (let cur: Element | null = e; cur; cur = cur.parentElement) {
        if (cur.namespaceURI !== 'http://www.w3.org/1999/xhtml' || !/^[a-z][a-z0-9-]*$/.test(cur.localName))
          return undefined;
        const same = cur.parentElement
          ? [...cur.parentElement.children].filter((c) => c.localName === cur!.localName)
          : [cur];
        parts.unshift(same.length > 1 ? `${cur.localName}[${same.indexOf(cur) + 1}]` : cur.localName);
      }
      return `/${parts.join('/')}`;
    },
    /** Puppeteer's text content: a field's value, else its children's (a shadow root's for a host). */
    fullText(e: Element): string {
      if (
        e instanceof HTMLSelectElement ||
        e instanceof HTMLTextAreaElement ||
        (e instanceof HTMLInputElement && !['checkbox', 'image', 'radio'].includes(e.type))
      )
        return e.value;
      let text = '';
      for (const n of (e.shadowRoot ?? e).childNodes) {
        if (n instanceof Element) text += h.suitable(n) ? h.fullText(n) : '';
        else if (n.nodeType === Node.TEXT_NODE) text += n.nodeValue ?? '';
      }
      return text;
    },
    suitable(e: Element): boolean {
      return e.localName !== 'script' && e.localName !== 'style' && !document.head?.contains(e);
    },
    /** Puppeteer's text/ query (TextQuerySelector.js): the deepest elements whose text holds it. */
    textMatches(root: ParentNode, text: string, out: Element[]): boolean {
      let deeper = false;
      for (const n of (root instanceof Element && root.shadowRoot ? root.shadowRoot : root).children) {
        if (h.suitable(n) && h.textMatches(n, text, out)) deeper = true;
      }
      if (deeper) return true;
      if (root instanceof Element && h.suitable(root) && h.fullText(root).includes(text)) {
        out.push(root);
        return true;
      }
      return false;
    },
  };

  const root = el.getRootNode() as Document | ShadowRoot;
  // Hosts from the outermost down, for a chain of per-root CSS paths.
  const hosts: Element[] = [];
  for (let r: Node = root; r instanceof ShadowRoot; r = r.host.getRootNode()) hosts.unshift(r.host);
  const chain = {
    to(last: string): string[] {
      return hosts.map((host) => h.cssPath(host, host.getRootNode() as Document | ShadowRoot, true)).concat(last);
    },
  };

  const css: string[][] = [];
  const id = h.safeId(el);
  if (id && h.uniqueIn(root, id, el)) css.push(chain.to(id));
  const path = h.cssPath(el, root, false);
  if (h.uniqueIn(root, path, el)) css.push(chain.to(path));

  const rest: string[] = [];
  const xp = root === document ? h.xpath(el) : undefined;
  if (xp) {
    const hits = document.evaluate(xp, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    if (hits.snapshotLength === 1 && hits.snapshotItem(0) === el) rest.push(`xpath/${xp}`);
  }
  const text = (el.textContent ?? '').trim();
  const clickable = el.localName === 'a' || el.localName === 'button' || el.getAttribute('role') === 'button';
  // Only text as written (no line breaks or runs of spaces), since puppeteer matches it verbatim.
  if (clickable && text && text.length <= textMax && !/\s\s|\n/.test(text) && (el as HTMLElement).offsetParent) {
    const hits: Element[] = [];
    h.textMatches(document, text, hits);
    if (hits.length === 1 && hits[0] === el) rest.push(`text/${text}`);
  }

  const box = el.getBoundingClientRect();
  const input = el instanceof HTMLInputElement ? el : undefined;
  const check = input && (input.type === 'checkbox' || input.type === 'radio');
  const editable = el instanceof HTMLTextAreaElement || (input && !check) || (el as HTMLElement).isContentEditable;
  let inFrame: boolean;
  try {
    inFrame = window.top !== window;
  } catch {
    inFrame = true;
  }
  return {
    css,
    rest,
    offsetX: Math.round((box.width / 2) * 100) / 100,
    offsetY: Math.round((box.height / 2) * 100) / 100,
    kind: check ? 'check' : el instanceof HTMLSelectElement ? 'select' : editable ? 'text' : 'other',
    checked: Boolean(check && input.checked),
    options: el instanceof HTMLSelectElement ? [...el.options].map((o) => ({ value: o.value, label: o.label })) : [],
    inFrame,
  };
}

/** Selectors and state of the element, read in one evaluate plus the aria snapshot. Throws when it is gone. */
/**
 * `line`: the element's line of the agent's latest snapshot, which names its role and name. Given,
 * the element's own aria snapshot is not taken: any aria snapshot other than the page's AI one makes
 * Playwright forget the refs that snapshot handed out, which the tool call that follows still uses.
 */
export async function describeElement(target: Locator, line?: string): Promise<ElementFacts> {
  const facts = await target.evaluate(inPage, TEXT_MAX_CHARS, { timeout: 5_000 });
  const aria = facts.inFrame ? undefined : await ariaSelector(target, target.page(), line).catch(() => undefined);
  const { css, rest, ...state } = facts;
  return { ...state, selectors: [...(aria ? [[aria]] : []), ...css, ...rest.map((s) => [s])] };
}

/** The element's Recorder selectors, best first: aria, #id, CSS path, xpath, text. */
export async function selectorsOf(target: Locator): Promise<string[][]> {
  return (await describeElement(target)).selectors;
}
