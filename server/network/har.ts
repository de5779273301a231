import { slices } from '../domain/slices.ts';
import type { Har, HarEntry } from '../../contract/har.ts';
import type { Header, NetworkEntry, ResourceTiming } from './networkLog.ts';

type Redact = (text: string) => string;

const iso = (ms: number) => new Date(ms).toISOString();
const span = (start: number, end: number) => (start >= 0 && end >= start ? end - start : -1);
const atLeast0 = (n: number) => Math.max(0, Math.round(n * 1000) / 1000);

/** HAR's phases from CDP's timing (ms after requestTime), the way DevTools' own export splits them. */
function timingsOf(t: ResourceTiming | undefined, total: number): HarEntry['timings'] {
  if (!t || t.sendStart < 0)
    return { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: atLeast0(total) };
  const firstPhase = [t.dnsStart, t.connectStart, t.sendStart].find((n) => n >= 0) ?? t.sendStart;
  const wait = atLeast0(t.receiveHeadersEnd - t.sendEnd);
  return {
    blocked: atLeast0(firstPhase),
    dns: span(t.dnsStart, t.dnsEnd),
    connect: span(t.connectStart, t.connectEnd),
    ssl: span(t.sslStart, t.sslEnd),
    send: atLeast0(t.sendEnd - t.sendStart),
    wait,
    receive: atLeast0(total - t.receiveHeadersEnd),
  };
}

const httpVersionOf = (protocol: string | undefined) =>
  !protocol ? 'HTTP/1.1' : protocol === 'h2' ? 'HTTP/2.0' : protocol === 'h3' ? 'HTTP/3' : protocol.toUpperCase();

function queryOf(url: string, redact: Redact): HarEntry['request']['queryString'] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value: redact(value) }));
  } catch {
    return [];
  }
}

const headersOf = (headers: Header[] | undefined, redact: Redact) =>
  (headers ?? []).map((h) => ({ name: h.name, value: redact(h.value) }));

const headerValue = (headers: Header[] | undefined, name: string) =>
  headers?.find((h) => h.name.toLowerCase() === name)?.value;

function entryOf(e: NetworkEntry, redact: Redact): HarEntry {
  const body = e.responseBody;
  const content: HarEntry['response']['content'] = {
    size: body?.size ?? e.bodySize ?? 0,
    mimeType: e.mimeType ?? 'x-unknown',
    ...(body && 'text' in body ? { text: redact(body.text) } : {}),
    ...(body && 'text' in body && body.truncated
      ? { comment: `cut to its first ${body.text.length} characters of ${body.size} bytes` }
      : body && 'skipped' in body
        ? { comment: `body not kept: ${body.skipped}` }
        : {}),
  };
  const time = e.duration ?? 0;
  return {
    pageref: e.targetId,
    startedDateTime: iso(e.startedAt),
    time,
    request: {
      method: e.method,
      url: redact(e.url),
      httpVersion: httpVersionOf(e.protocol),
      cookies: [],
      headers: headersOf(e.requestHeaders, redact),
      queryString: queryOf(e.url, redact),
      ...(e.requestBody
        ? {
            postData: {
              mimeType: headerValue(e.requestHeaders, 'content-type') ?? 'application/octet-stream',
              text: redact(e.requestBody.text),
              ...(e.requestBody.truncated ? { comment: `cut; the body was ${e.requestBody.size} bytes` } : {}),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: e.requestBody?.size ?? 0,
    },
    response: {
      status: e.status ?? 0,
      statusText: e.statusText ?? '',
      httpVersion: httpVersionOf(e.protocol),
      cookies: [],
      headers: headersOf(e.responseHeaders, redact),
      content,
      redirectURL: e.redirectURL ? redact(e.redirectURL) : '',
      headersSize: -1,
      bodySize: e.transferSize ?? -1,
      ...(e.failure ? { _error: e.failure } : {}),
    },
    cache: {},
    timings: timingsOf(e.timing, time),
    _resourceType: e.resourceType.toLowerCase(),
  };
}

/**
 * A session's network record as HAR 1.2: one page per tab or worker, every value through `redact`.
 * Built in slices (domain/slices.ts): a record of tens of MB is seconds of redaction, which the
 * event loop (every other request) would otherwise wait for.
 */
export async function harOf(entries: readonly NetworkEntry[], dropped: number, redact: Redact): Promise<Har> {
  const clock = slices();
  const pages = new Map<string, { startedAt: number; title: string }>();
  const harEntries: HarEntry[] = [];
  // Copied before the first slice: a live record goes on growing (and dropping its oldest) meanwhile.
  for (const e of [...entries]) {
    await clock.breathe();
    if (!pages.has(e.targetId)) pages.set(e.targetId, { startedAt: e.startedAt, title: redact(e.url) });
    harEntries.push(entryOf(e, redact));
  }
  return {
    log: {
      version: '1.2',
      creator: { name: 'Browserdesk', version: '1.0' },
      pages: [...pages].map(([id, p]) => ({ startedDateTime: iso(p.startedAt), id, title: p.title, pageTimings: {} })),
      entries: harEntries,
      ...(dropped ? { comment: `${dropped} earlier requests are not here: the record keeps the newest` } : {}),
    },
  };
}
