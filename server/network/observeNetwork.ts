import type { CdpClient } from '../sessions/cdp/client.ts';
import type { Header, KeptBody, NetworkEntry, NetworkLog, ResourceTiming, SkippedBody } from './networkLog.ts';

/** Headers whose values are credentials: kept by name, never by value. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
export const REDACTED = '[redacted]';
/** A body kept is cut here; its real size is said beside it. */
const BODY_KEEP_MAX = 256 * 1024;
/** Bodies fetched from the browser at once, and waiting to be: past that a body is only sized. */
const FETCHING_AT_ONCE = 2;
const FETCH_QUEUE_MAX = 200;
const FETCH_TIMEOUT_MS = 5_000;

/** Text-like types, the only bodies read: an image's or a video's bytes say nothing to an agent. */
const TEXT_LIKE =
  /^(text\/|application\/(json|[\w.+-]*\+json|javascript|x-javascript|ecmascript|xml|[\w.+-]*\+xml|x-www-form-urlencoded|graphql))/i;
const isTextLike = (mimeType: string | undefined) => mimeType !== undefined && TEXT_LIKE.test(mimeType);

interface CdpRequest {
  url: string;
  urlFragment?: string;
  method: string;
  headers: Record<string, string>;
  postData?: string;
  hasPostData?: boolean;
}

interface CdpResponse {
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  mimeType: string;
  protocol?: string;
  timing?: ResourceTiming;
  fromDiskCache?: boolean;
  encodedDataLength: number;
}

/** CDP's header object as a list, credential values replaced. */
export function headerList(headers: Record<string, string>): Header[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    // Set-Cookie lines come joined by newlines in one value: one redacted header each.
    value.split('\n').map((v) => ({ name, value: SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : v })),
  );
}

const cutBody = (text: string, size: number): KeptBody => ({
  text: text.length > BODY_KEEP_MAX ? text.slice(0, BODY_KEEP_MAX) : text,
  size,
  truncated: text.length > BODY_KEEP_MAX,
});

interface Live {
  entry: NetworkEntry;
  /** CDP's monotonic seconds at the start. */
  started: number;
  hasPostData: boolean;
}

export interface NetworkObserverOptions {
  log: NetworkLog;
  /** A request finished or failed (for the live log). */
  finished(entry: NetworkEntry): void;
}

/**
 * Fill a session's NetworkLog from the Network events of a CDP client that has auto-attached to the
 * session's targets (server/sessionEvents/pageObserver.ts): call `enable(sessionId)` on each.
 * Bodies are read after loading finished, text-like ones only, a few at a time, only when their
 * size fits the log's body budget, and cut to BODY_KEEP_MAX.
 */
export class NetworkObserver {
  private readonly live = new Map<string, Live>();
  /** ExtraInfo events carry the headers as sent (with Cookie); they may come before the request. */
  private readonly extra = new Map<string, { request?: Header[]; response?: Header[] }>();
  private readonly targets = new Map<string, string>();
  private fetching = 0;
  private readonly queue: (() => Promise<void>)[] = [];

  constructor(
    private readonly cdp: CdpClient,
    private readonly opts: NetworkObserverOptions,
  ) {
    const on = <P>(method: string, handle: (p: P, key: string, sessionId: string) => void) =>
      cdp.on(method, (params, sessionId = '') =>
        handle(params as P, `${sessionId}:${(params as { requestId: string }).requestId}`, sessionId),
      );
    on('Network.requestWillBeSent', (p: RequestWillBeSent, key, sessionId) => this.started(p, key, sessionId));
    on('Network.requestWillBeSentExtraInfo', (p: { headers: Record<string, string> }, key) =>
      this.extraHeaders(key, { request: headerList(p.headers) }),
    );
    on('Network.responseReceivedExtraInfo', (p: { headers: Record<string, string> }, key) =>
      this.extraHeaders(key, { response: headerList(p.headers) }),
    );
    on('Network.responseReceived', (p: { response: CdpResponse }, key) => {
      const live = this.live.get(key);
      if (live) this.responded(live, p.response);
    });
    on('Network.dataReceived', (p: { dataLength: number }, key) => {
      const live = this.live.get(key);
      if (live) live.entry.bodySize = (live.entry.bodySize ?? 0) + p.dataLength;
    });
    on('Network.loadingFinished', (p: { timestamp: number; encodedDataLength: number }, key, sessionId) =>
      this.finished(key, sessionId, p.timestamp, { transferSize: p.encodedDataLength }),
    );
    on(
      'Network.loadingFailed',
      (p: { timestamp: number; errorText: string; canceled?: boolean; blockedReason?: string }, key, sessionId) =>
        this.finished(key, sessionId, p.timestamp, {
          failure: p.canceled ? 'canceled' : p.blockedReason ? `${p.errorText} (${p.blockedReason})` : p.errorText,
        }),
    );
  }

  /** Start recording a target's requests. */
  async enable(sessionId: string, targetId: string): Promise<void> {
    this.targets.set(sessionId, targetId);
    // No buffer for bodies beyond what the body budget could keep: Chromium drops the rest itself.
    const buffer = Math.min(this.opts.log.bodyBudget, 16 * 1024 * 1024);
    await this.cdp.send(
      'Network.enable',
      { maxTotalBufferSize: buffer * 2, maxResourceBufferSize: buffer, maxPostDataSize: BODY_KEEP_MAX },
      sessionId,
    );
  }

  private started(p: RequestWillBeSent, key: string, sessionId: string): void {
    if (p.request.url.startsWith('data:')) return;
    const previous = this.live.get(key);
    // A redirect: the same requestId goes on with the new URL; the hop before it ends here.
    if (previous && p.redirectResponse) {
      this.responded(previous, p.redirectResponse);
      this.opts.log.update(previous.entry, { redirectURL: p.request.url });
      this.finished(key, sessionId, p.timestamp, { transferSize: p.redirectResponse.encodedDataLength });
    }
    const entry = this.opts.log.add({
      targetId: this.targets.get(sessionId) ?? sessionId,
      method: p.request.method,
      url: p.request.url + (p.request.urlFragment ?? ''),
      resourceType: p.type ?? 'Other',
      startedAt: p.wallTime * 1000,
      requestHeaders: this.extra.get(key)?.request ?? headerList(p.request.headers),
      ...(p.request.postData !== undefined
        ? { requestBody: cutBody(p.request.postData, Buffer.byteLength(p.request.postData)) }
        : {}),
    });
    this.live.set(key, { entry, started: p.timestamp, hasPostData: !!p.request.hasPostData && !p.request.postData });
    this.extra.delete(key);
  }

  private extraHeaders(key: string, headers: { request?: Header[]; response?: Header[] }): void {
    const live = this.live.get(key);
    if (!live) {
      // Before its request: held until it comes (dropped with the rest when too many wait).
      if (this.extra.size > 1000) this.extra.clear();
      this.extra.set(key, { ...this.extra.get(key), ...headers });
      return;
    }
    if (headers.request) this.opts.log.update(live.entry, { requestHeaders: headers.request });
    if (headers.response) this.opts.log.update(live.entry, { responseHeaders: headers.response });
  }

  private responded(live: Live, r: CdpResponse): void {
    this.opts.log.update(live.entry, {
      status: r.status,
      statusText: r.statusText,
      mimeType: r.mimeType,
      ...(r.protocol ? { protocol: r.protocol } : {}),
      ...(r.timing ? { timing: r.timing } : {}),
      fromCache: !!r.fromDiskCache,
      // The ExtraInfo headers (with Set-Cookie) may have come first: they win.
      responseHeaders: live.entry.responseHeaders ?? headerList(r.headers),
    });
  }

  private finished(key: string, sessionId: string, timestamp: number, change: Partial<NetworkEntry>): void {
    const live = this.live.get(key);
    if (!live) return;
    this.live.delete(key);
    const { entry } = live;
    this.opts.log.update(entry, { ...change, duration: Math.max(0, Math.round((timestamp - live.started) * 1000)) });
    if (live.hasPostData) this.enqueue(() => this.readPostData(entry, key, sessionId));
    if (!entry.failure && entry.redirectURL === undefined) this.readBodyLater(entry, key, sessionId);
    this.opts.finished(entry);
  }

  private readBodyLater(entry: NetworkEntry, key: string, sessionId: string): void {
    if (!isTextLike(entry.mimeType) || entry.status === 204 || entry.status === 304) return;
    const size = entry.bodySize ?? 0;
    if (size > this.opts.log.bodyBudget) {
      const skipped: SkippedBody = { skipped: `over the ${this.opts.log.bodyBudget} bytes a body may take`, size };
      return this.opts.log.update(entry, { responseBody: skipped });
    }
    if (!this.enqueue(() => this.readBody(entry, key, sessionId)))
      this.opts.log.update(entry, { responseBody: { skipped: 'too many bodies at once', size } });
  }

  private enqueue(task: () => Promise<void>): boolean {
    if (this.queue.length >= FETCH_QUEUE_MAX) return false;
    this.queue.push(task);
    this.pump();
    return true;
  }

  private pump(): void {
    while (this.fetching < FETCHING_AT_ONCE && this.queue.length) {
      const task = this.queue.shift()!;
      this.fetching++;
      void task()
        .catch(() => undefined)
        .finally(() => {
          this.fetching--;
          this.pump();
        });
    }
  }

  private async readBody(entry: NetworkEntry, key: string, sessionId: string): Promise<void> {
    if (this.cdp.closed) return;
    const requestId = key.slice(key.indexOf(':') + 1);
    try {
      const { body, base64Encoded } = await this.cdp.send<{ body: string; base64Encoded: boolean }>(
        'Network.getResponseBody',
        { requestId },
        sessionId,
        FETCH_TIMEOUT_MS,
      );
      const text = base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      this.opts.log.update(entry, { responseBody: cutBody(text, entry.bodySize ?? Buffer.byteLength(text)) });
    } catch (err) {
      const why = err instanceof Error ? err.message.replace(/^CDP: /, '') : String(err);
      this.opts.log.update(entry, { responseBody: { skipped: `not readable: ${why}`, size: entry.bodySize ?? 0 } });
    }
  }

  private async readPostData(entry: NetworkEntry, key: string, sessionId: string): Promise<void> {
    if (this.cdp.closed) return;
    const requestId = key.slice(key.indexOf(':') + 1);
    const { postData } = await this.cdp.send<{ postData: string }>(
      'Network.getRequestPostData',
      { requestId },
      sessionId,
      FETCH_TIMEOUT_MS,
    );
    this.opts.log.update(entry, { requestBody: cutBody(postData, Buffer.byteLength(postData)) });
  }
}

interface RequestWillBeSent {
  request: CdpRequest;
  timestamp: number;
  wallTime: number;
  type?: string;
  redirectResponse?: CdpResponse;
}
