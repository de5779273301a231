import type { CdpClient } from '../sessions/cdp/client.ts';
import { answerLocally } from '../sessions/storageState.ts';
import { StorageCookie, StorageState } from '../../contract/sessions.ts';

/** Origins whose localStorage is read at the end, first visited first. */
export const MAX_ORIGINS = 50;
/** localStorage bytes (names and values, UTF-16 code units) kept over all origins. */
const MAX_LOCAL_STORAGE_CHARS = 16 * 1024 * 1024;

const originOf = (url: string | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The http(s) origins the session's pages showed, from the browser's own target list (no page is
 * attached or slowed for it): every page target's URL as it navigates, in the order first seen,
 * with the browser context it was in. Frames inside pages are not counted: their storage is
 * partitioned under the top site.
 */
export class OriginTracker {
  private readonly seen = new Map<string, Set<string>>();

  constructor(cdp: CdpClient) {
    const note = (p: Record<string, unknown>) => {
      const info = p.targetInfo as { type?: string; url?: string; browserContextId?: string } | undefined;
      const origin = info?.type === 'page' ? originOf(info.url) : undefined;
      if (!origin || !info?.browserContextId) return;
      let contexts = this.seen.get(origin);
      if (!contexts) {
        if (this.seen.size >= MAX_ORIGINS * 4) return;
        this.seen.set(origin, (contexts = new Set()));
      }
      contexts.add(info.browserContextId);
    };
    cdp.on('Target.targetCreated', note);
    cdp.on('Target.targetInfoChanged', note);
  }

  /** Origins shown in `contextId`, first seen first, at most MAX_ORIGINS. */
  originsIn(contextId: string): string[] {
    return [...this.seen]
      .filter(([, contexts]) => contexts.has(contextId))
      .map(([origin]) => origin)
      .slice(0, MAX_ORIGINS);
  }
}

interface CdpCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  partitionKey?: unknown;
}

/**
 * The default browser context's cookies as Playwright writes them. Kept only when the contract's
 * StorageCookie accepts them, so the state is accepted unchanged as session_data: Chromium keeps
 * some that the contract refuses (an empty name), and a partitioned (CHIPS) cookie would lose its
 * partition on the way back, so it is left out.
 */
async function cookiesOf(cdp: CdpClient): Promise<StorageState['cookies']> {
  const { cookies } = await cdp.send<{ cookies: CdpCookie[] }>('Storage.getCookies');
  const out: StorageState['cookies'] = [];
  for (const c of cookies) {
    if (c.partitionKey) continue;
    const parsed = StorageCookie.safeParse({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      expires: c.session || c.expires <= 0 ? -1 : c.expires,
      httpOnly: c.httpOnly,
      secure: c.secure,
      ...(c.sameSite ? { sameSite: c.sameSite } : {}),
    });
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

const READ_LOCAL_STORAGE = `(() => {
  const items = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    if (name !== null) items.push({ name, value: localStorage.getItem(name) ?? '' });
  }
  return { origin: location.origin, items };
})()`;

type Items = StorageState['origins'][number]['localStorage'];
type Read = { origin: string; items: Items };

/** One page's read; undefined when it threw (an opaque origin, storage disabled) or did not answer in time. */
async function evaluateRead(
  cdp: CdpClient,
  sessionId: string,
  extra: Record<string, unknown>,
  timeoutMs: number,
): Promise<Read | undefined> {
  const r = await cdp
    .send<{ result?: { value?: Read }; exceptionDetails?: unknown }>(
      'Runtime.evaluate',
      { expression: READ_LOCAL_STORAGE, returnByValue: true, ...extra },
      sessionId,
      timeoutMs,
    )
    .catch(() => undefined);
  const v = r && !r.exceptionDetails ? r.result?.value : undefined;
  return v && typeof v.origin === 'string' && Array.isArray(v.items) ? v : undefined;
}

/** Pages of the context still open at one of the wanted origins: read in an isolated world (the page's own scripts cannot tamper with it), without navigating anything. */
async function fromOpenPages(
  cdp: CdpClient,
  contextId: string,
  wanted: string[],
  found: Map<string, Items>,
  deadline: number,
): Promise<void> {
  const budget = () => Math.max(1, Math.min(1000, deadline - Date.now()));
  const { targetInfos } = await cdp.send<{
    targetInfos: { targetId: string; type: string; url: string; browserContextId?: string }[];
  }>('Target.getTargets', {}, undefined, budget());
  for (const t of targetInfos) {
    if (Date.now() >= deadline) return;
    const origin = t.type === 'page' && t.browserContextId === contextId ? originOf(t.url) : undefined;
    if (!origin || !wanted.includes(origin) || found.has(origin)) continue;
    let sessionId: string | undefined;
    try {
      ({ sessionId } = await cdp.send<{ sessionId: string }>(
        'Target.attachToTarget',
        { targetId: t.targetId, flatten: true },
        undefined,
        budget(),
      ));
      const { frameTree } = await cdp.send<{ frameTree: { frame: { id: string } } }>(
        'Page.getFrameTree',
        {},
        sessionId,
        budget(),
      );
      const { executionContextId } = await cdp.send<{ executionContextId: number }>(
        'Page.createIsolatedWorld',
        { frameId: frameTree.frame.id, worldName: 'browserdesk-storage-state' },
        sessionId,
        budget(),
      );
      const read = await evaluateRead(cdp, sessionId, { contextId: executionContextId }, budget());
      if (read?.origin === origin) found.set(origin, read.items);
    } catch {
      // a busy, closing or crashed page: the reader tab tries its origin
    } finally {
      if (sessionId) void cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  }
}

/**
 * Origins no open page shows any more, read the way Playwright's storageState() does: a hidden
 * tab opens each origin with every request answered locally (Fetch interception: our own blank
 * page, no request reaches the network, no page script runs, service workers bypassed).
 */
async function fromReaderTab(
  cdp: CdpClient,
  origins: string[],
  found: Map<string, Items>,
  deadline: number,
): Promise<void> {
  if (!origins.length) return;
  const left = () => Math.max(1, deadline - Date.now());
  // hidden: not in the tab strip a person (or the recording) sees; older browsers want a background tab.
  const { targetId } = await cdp
    .send<{ targetId: string }>(
      'Target.createTarget',
      { url: 'about:blank', background: true, hidden: true },
      undefined,
      left(),
    )
    .catch(() =>
      cdp.send<{ targetId: string }>(
        'Target.createTarget',
        { url: 'about:blank', background: true },
        undefined,
        left(),
      ),
    );
  let off: () => unknown = () => undefined;
  try {
    const { sessionId } = await cdp.send<{ sessionId: string }>(
      'Target.attachToTarget',
      { targetId, flatten: true },
      undefined,
      left(),
    );
    off = answerLocally(cdp, sessionId);
    await cdp.send('Network.setBypassServiceWorker', { bypass: true }, sessionId, left()).catch(() => undefined);
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] }, sessionId, left());
    for (const origin of origins) {
      if (Date.now() >= deadline) break;
      // Page.navigate answers once the document has committed, which is when localStorage is there.
      const nav = await cdp
        .send<{ errorText?: string }>('Page.navigate', { url: `${origin}/` }, sessionId, left())
        .catch(() => ({ errorText: 'no answer' }));
      if (nav.errorText) continue;
      // The answer names the origin it was read in: one read in the page before (a race with the commit) is read again.
      let read: Read | undefined;
      for (let attempt = 0; attempt < 3 && read?.origin !== origin && Date.now() < deadline; attempt++) {
        if (attempt) await new Promise((r) => setTimeout(r, 50));
        read = await evaluateRead(cdp, sessionId, {}, left());
      }
      if (read?.origin === origin) found.set(origin, read.items);
    }
  } finally {
    off();
    await cdp.send('Target.closeTarget', { targetId }, undefined, 1000).catch(() => undefined);
  }
}

/** localStorage of the default context's origins, in the order first seen; stops at `deadline` (epoch ms), and at MAX_LOCAL_STORAGE_CHARS. */
async function localStorageOf(
  cdp: CdpClient,
  tracker: OriginTracker | undefined,
  deadline: number,
): Promise<StorageState['origins']> {
  const { defaultBrowserContextId: contextId } = await cdp.send<{ defaultBrowserContextId?: string }>(
    'Target.getBrowserContexts',
  );
  const origins = contextId && tracker ? tracker.originsIn(contextId) : [];
  if (!contextId || !origins.length) return [];
  const found = new Map<string, Items>();
  await fromOpenPages(cdp, contextId, origins, found, deadline).catch(() => undefined);
  await fromReaderTab(
    cdp,
    origins.filter((o) => !found.has(o)),
    found,
    deadline,
  ).catch(() => undefined);
  const out: StorageState['origins'] = [];
  let chars = 0;
  for (const origin of origins) {
    const items = found.get(origin);
    const size = items?.reduce((n, i) => n + i.name.length + i.value.length, 0) ?? 0;
    if (!items?.length || chars + size > MAX_LOCAL_STORAGE_CHARS) continue;
    chars += size;
    out.push({ origin, localStorage: items });
  }
  return out;
}

/**
 * The session's storage state as Playwright's `context.storageState()` writes it, parsed by the
 * contract's StorageState, so that its JSON is accepted unchanged as the next session's
 * session_data. Only the default browser context (contexts a client created die with their client).
 */
export async function readStorageState(
  cdp: CdpClient,
  tracker: OriginTracker | undefined,
  deadline: number,
): Promise<StorageState> {
  const cookies = await cookiesOf(cdp);
  const withStorage = await localStorageOf(cdp, tracker, deadline).catch(() => []);
  return StorageState.parse({ cookies, origins: withStorage });
}
