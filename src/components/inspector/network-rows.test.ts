import { describe, expect, it } from 'vitest';
import type { HarEntry } from '../../../contract/har.ts';
import { networkRowOf, requestBodyOf, responseBodyOf, SHOWN_BODY_CHARS } from './network-rows.ts';

/** A HAR entry as server/network/har.ts writes one, with `over` changed. */
function entry(over: { request?: Partial<HarEntry['request']>; response?: Partial<HarEntry['response']> } = {}) {
  const e: HarEntry = {
    pageref: 'T1',
    startedDateTime: '2026-11-28T09:00:00.000Z',
    time: 12.6,
    request: {
      method: 'GET',
      url: 'http://127.0.0.1:4000/api/items?page=2',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'Accept', value: '*/*' }],
      queryString: [{ name: 'page', value: '2' }],
      headersSize: -1,
      bodySize: 0,
      ...over.request,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      content: { size: 15, mimeType: 'application/json', text: '{"items":[1,2]}' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 2150,
      ...over.response,
    },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2.6 },
    _resourceType: 'fetch',
  };
  return e;
}

describe('a request as a row of the Network table', () => {
  it('reads as method, path and query, status, type, whole milliseconds and bytes on the wire', () => {
    expect(networkRowOf(entry())).toEqual({
      method: 'GET',
      url: 'http://127.0.0.1:4000/api/items?page=2',
      name: '/api/items?page=2',
      status: '200',
      type: 'fetch',
      time: '13 ms',
      size: '2.1 KB',
      problem: false,
    });
  });

  it('names a site root by its host, and a URL that does not parse by itself', () => {
    expect(networkRowOf(entry({ request: { url: 'https://example.com/' } })).name).toBe('example.com/');
    expect(networkRowOf(entry({ request: { url: 'not a url' } })).name).toBe('not a url');
  });

  it('marks an error status a problem and says a request with no answer failed, with no size', () => {
    expect(networkRowOf(entry({ response: { status: 404, statusText: 'Not Found' } }))).toMatchObject({
      status: '404',
      problem: true,
    });
    const failed = networkRowOf(
      entry({ response: { status: 0, _error: 'net::ERR_CONNECTION_REFUSED', bodySize: -1 } }),
    );
    expect(failed).toMatchObject({ status: 'failed', size: '—', problem: true });
  });

  it('sizes by the decoded body when the browser gave no wire size, and falls back to the MIME type for the type', () => {
    const e = entry({ response: { bodySize: -1, content: { size: 5 * 1024 * 1024, mimeType: 'text/html' } } });
    delete e._resourceType;
    expect(networkRowOf(e)).toMatchObject({ size: '5.0 MB', type: 'text/html' });
  });

  it('takes a long request for seconds', () => {
    expect(networkRowOf({ ...entry(), time: 3456 }).time).toBe('3.5 s');
  });
});

describe("a request's bodies in its details", () => {
  it('shows a kept body as is, and a GET has no request body', () => {
    expect(responseBodyOf(entry())).toEqual({ text: '{"items":[1,2]}', note: null });
    expect(requestBodyOf(entry())).toBeNull();
  });

  it("says the server's note of a body cut or not kept, and why a binary body is missing", () => {
    const cut = entry({
      request: {
        method: 'POST',
        bodySize: 300_000,
        postData: { mimeType: 'text/plain', text: 'x'.repeat(100), comment: 'cut; the body was 300000 bytes' },
      },
    });
    expect(requestBodyOf(cut)).toEqual({ text: 'x'.repeat(100), note: 'cut; the body was 300000 bytes' });
    const skipped = entry({
      response: { content: { size: 9_000_000, mimeType: 'text/html', comment: 'body not kept: over the budget' } },
    });
    expect(responseBodyOf(skipped)).toEqual({ text: null, note: 'body not kept: over the budget' });
    const image = entry({ response: { content: { size: 2048, mimeType: 'image/png' } } });
    expect(responseBodyOf(image)).toEqual({ text: null, note: 'Not kept (2.0 KB; only text bodies are kept)' });
    const empty = entry({ response: { status: 204, content: { size: 0, mimeType: 'x-unknown' } } });
    expect(responseBodyOf(empty)).toEqual({ text: null, note: 'Empty' });
  });

  it('cuts a long body for the page and says where the rest is', () => {
    const long = 'y'.repeat(SHOWN_BODY_CHARS + 10);
    const shown = responseBodyOf(
      entry({ response: { content: { size: long.length, mimeType: 'text/plain', text: long } } }),
    );
    expect(shown.text).toHaveLength(SHOWN_BODY_CHARS);
    expect(shown.note).toBe('the first 20,000 characters shown; Download HAR has the rest');
  });
});
