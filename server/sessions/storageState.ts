import { within } from '../domain/within.ts';
import type { CdpClient } from './cdp/client.ts';
import type { StorageState } from '../../contract/sessions.ts';

/** Playwright cookie → CDP Network.CookieParam. */
function cookieParam(c: StorageState['cookies'][number]): Record<string, unknown> {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    secure: c.secure,
    httpOnly: c.httpOnly,
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
    // Playwright writes -1 for a session cookie; CDP wants the field left out.
    ...(c.expires > 0 ? { expires: c.expires } : {}),
  };
}

const bare = (domain: string) => domain.replace(/^\./, '').toLowerCase();

/**
 * Storage.setCookies drops a cookie it does not like (a malformed domain, a __Host- cookie that is
 * not secure, …) without an error, so read them back: a cookie that did not make it is reported
 * rather than silently missing. Already-expired cookies are expected to be dropped.
 */
async function setCookies(cdp: CdpClient, cookies: StorageState['cookies']): Promise<void> {
  await cdp.send('Storage.setCookies', { cookies: cookies.map(cookieParam) });
  const { cookies: stored } = await cdp.send<{ cookies: { name: string; domain: string; path: string }[] }>(
    'Storage.getCookies',
  );
  const now = Date.now() / 1000;
  for (const c of cookies) {
    if (c.expires > 0 && c.expires <= now) continue;
    const found = stored.some((s) => s.name === c.name && bare(s.domain) === bare(c.domain) && s.path === c.path);
    if (!found) throw new Error(`the browser rejected cookie "${c.name}" for domain ${c.domain}`);
  }
}

/** How long the hidden tab's visit of an origin may take to load (every request is answered locally). */
const LOAD_MS = 15_000;

const BLANK = Buffer.from('<!doctype html><title></title>').toString('base64');

/**
 * Answer every request of one attached tab locally (once Fetch is enabled on it): a document gets an
 * empty page, anything else fails. The tab can then "visit" an origin to reach its localStorage
 * without anything reaching the network. Returns the unsubscribe.
 */
export function answerLocally(cdp: CdpClient, sessionId: string): () => void {
  return cdp.on('Fetch.requestPaused', (params, sid) => {
    if (sid !== sessionId) return;
    const requestId = params.requestId as string;
    const isDocument = params.resourceType === 'Document';
    void cdp
      .send(
        isDocument ? 'Fetch.fulfillRequest' : 'Fetch.failRequest',
        isDocument
          ? {
              requestId,
              responseCode: 200,
              responseHeaders: [{ name: 'content-type', value: 'text/html' }],
              body: BLANK,
            }
          : { requestId, errorReason: 'Aborted' },
        sessionId,
      )
      .catch(() => undefined);
  });
}

/**
 * Apply a Playwright storage state to the browser's default context before anyone gets the URLs.
 * Cookies go in with Storage.setCookies. localStorage belongs to an origin, so a hidden tab visits
 * each origin with every request answered locally by Fetch interception (nothing reaches the
 * network), writes the items, and closes: the same trick Playwright uses for newContext({storageState}).
 */
export async function applyStorageState(cdp: CdpClient, state: StorageState): Promise<void> {
  if (state.cookies.length) await setCookies(cdp, state.cookies);
  const origins = state.origins.filter((o) => o.localStorage.length);
  if (!origins.length) return;
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
    url: 'about:blank',
    background: true,
  });
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  const off = answerLocally(cdp, sessionId);
  try {
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] }, sessionId);
    await cdp.send('Page.enable', {}, sessionId);
    // Lifecycle events name their navigation (loaderId): Page.loadEventFired does not, and the new
    // tab's own about:blank can fire one late, after the visit began, on a busy host.
    await cdp.send('Page.setLifecycleEventsEnabled', { enabled: true }, sessionId);
    for (const { origin, localStorage } of origins) {
      const loadedIds = new Set<string>();
      let wake = () => {};
      const stop = cdp.on('Page.lifecycleEvent', (p, sid) => {
        if (sid !== sessionId || p.name !== 'load') return;
        loadedIds.add(p.loaderId as string);
        wake();
      });
      try {
        const nav = await cdp.send<{ errorText?: string; loaderId?: string }>(
          'Page.navigate',
          { url: `${origin}/` },
          sessionId,
        );
        if (nav.errorText) throw new Error(`could not open ${origin} to set its localStorage: ${nav.errorText}`);
        const loaded = new Promise<void>((resolve) => {
          wake = () => {
            if (nav.loaderId === undefined || loadedIds.has(nav.loaderId)) resolve();
          };
          wake();
        });
        await within(loaded, LOAD_MS, `${origin} did not load`);
      } finally {
        stop();
      }
      const expression = `(() => { for (const [k, v] of ${JSON.stringify(localStorage.map((i) => [i.name, i.value]))}) localStorage.setItem(k, v); return location.origin; })()`;
      const r = await cdp.send<{ exceptionDetails?: unknown; result?: { value?: unknown } }>(
        'Runtime.evaluate',
        { expression, returnByValue: true },
        sessionId,
      );
      // The items went into the origin's storage only if the tab was on that origin when they were written.
      if (r.exceptionDetails || r.result?.value !== new URL(origin).origin)
        throw new Error(`could not set localStorage of ${origin}`);
    }
  } finally {
    off();
    await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  }
}
