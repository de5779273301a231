import type { CdpClient } from '../browser/cdp/client.ts';
import { StorageCookie, StorageState } from '../../contract/sessions.ts';

/** Origins whose localStorage is read at the end, first visited first. */
export const MAX_ORIGINS = 50;
/** localStorage bytes (names and values, UTF-16 code units) kept over all origins. */
const MAX_LOCAL_STORAGE_CHARS = 16 * 1024 * 1024;

/**
 * The http(s) origins the session's pages showed, from the browser's own target list (no page is
 * attached or slowed for it): every page target's URL as it navigates, in the order first seen.
 * Frames inside pages are not counted: their storage is partitioned under the top site.
 */
export class OriginTracker {
  readonly origins = new Set<string>();

  constructor(cdp: CdpClient) {
    const note = (p: Record<string, unknown>) => {
      const info = p.targetInfo as { type?: string; url?: string } | undefined;
      if (info?.type !== 'page' || !info.url) return;
      let url: URL;
      try {
        url = new URL(info.url);
      } catch {
        return;
      }
      if ((url.protocol === 'http:' || url.protocol === 'https:') && this.origins.size < MAX_ORIGINS) this.origins.add(url.origin);
    };
    cdp.on('Target.targetCreated', note);
    cdp.on('Target.targetInfoChanged', note);
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

const BLANK = Buffer.from('<!doctype html><title></title>').toString('base64');

const READ_LOCAL_STORAGE = `(() => {
  const items = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i);
    if (name !== null) items.push({ name, value: localStorage.getItem(name) ?? '' });
  }
  return { origin: location.origin, items };
})()`;

type Read = { origin: string; items: { name: string; value: string }[] };

/**
 * localStorage of each origin, read the way Playwright's storageState() does: a background tab
 * opens each origin with every request answered locally (Fetch interception: our own blank page,
 * no request reaches the network, no page script runs, service workers bypassed) and reads its
 * items. Stops at `deadline` (epoch ms): origins not reached by then are left out.
 */
async function localStorageOf(cdp: CdpClient, origins: string[], deadline: number): Promise<StorageState['origins']> {
  const out: StorageState['origins'] = [];
  if (!origins.length) return out;
  const left = () => Math.max(1, deadline - Date.now());
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', background: true }, undefined, left());
  let off: () => unknown = () => undefined;
  try {
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true }, undefined, left());
    off = cdp.on('Fetch.requestPaused', (params, sid) => {
      if (sid !== sessionId) return;
      const requestId = params.requestId as string;
      const isDocument = params.resourceType === 'Document';
      void cdp
        .send(
          isDocument ? 'Fetch.fulfillRequest' : 'Fetch.failRequest',
          isDocument ? { requestId, responseCode: 200, responseHeaders: [{ name: 'content-type', value: 'text/html' }], body: BLANK } : { requestId, errorReason: 'Aborted' },
          sessionId,
        )
        .catch(() => undefined);
    });
    await cdp.send('Network.setBypassServiceWorker', { bypass: true }, sessionId, left()).catch(() => undefined);
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] }, sessionId, left());
    let chars = 0;
    for (const origin of origins) {
      if (Date.now() >= deadline) break;
      // Page.navigate answers once the document has committed, which is when localStorage is there.
      const nav = await cdp.send<{ errorText?: string }>('Page.navigate', { url: `${origin}/` }, sessionId, left()).catch(() => ({ errorText: 'no answer' }));
      if (nav.errorText) continue;
      // The answer names the origin it was read in: one read in the page before (a race with the commit) is read again.
      let read: Read | undefined;
      for (let attempt = 0; attempt < 3 && read?.origin !== origin && Date.now() < deadline; attempt++) {
        if (attempt) await new Promise((r) => setTimeout(r, 50));
        const r = await cdp
          .send<{ result?: { value?: Read }; exceptionDetails?: unknown }>('Runtime.evaluate', { expression: READ_LOCAL_STORAGE, returnByValue: true }, sessionId, left())
          .catch(() => undefined);
        read = r && !r.exceptionDetails ? r.result?.value : undefined;
      }
      const items = read?.origin === origin && Array.isArray(read.items) ? read.items : [];
      const size = items.reduce((n, i) => n + i.name.length + i.value.length, 0);
      if (!items.length || chars + size > MAX_LOCAL_STORAGE_CHARS) continue;
      chars += size;
      out.push({ origin, localStorage: items });
    }
  } finally {
    off();
    await cdp.send('Target.closeTarget', { targetId }, undefined, 1000).catch(() => undefined);
  }
  return out;
}

/**
 * The session's storage state as Playwright's `context.storageState()` writes it, parsed by the
 * contract's StorageState, so that its JSON is accepted unchanged as the next session's
 * session_data. Only the default browser context (contexts a client created die with their client).
 */
export async function readStorageState(cdp: CdpClient, origins: Iterable<string>, deadline: number): Promise<StorageState> {
  const cookies = await cookiesOf(cdp);
  const withStorage = await localStorageOf(cdp, [...origins], deadline).catch(() => []);
  return StorageState.parse({ cookies, origins: withStorage });
}
