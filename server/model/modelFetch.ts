import { Readable } from 'node:stream';
import type { Agent } from 'undici';

// Loaded when first used: it is about 180 ms and 18 MB the idle server does not need.
const undici = () => import('undici');

/**
 * The fetch the AI SDK providers use to reach the model, built on undici's request(): the same
 * HTTP client as Node's fetch without the WHATWG machinery around it, which is most of the
 * server's own time per /write. undici's timeouts give the per-attempt limit: `timeoutMs` of
 * silence before the headers or between body chunks, so a long stream that keeps arriving is
 * never cut but a hung model is. Their errors (UND_ERR_HEADERS_TIMEOUT, UND_ERR_BODY_TIMEOUT)
 * and refused connections (ECONNREFUSED) are network errors the SDK retries.
 */
export function modelFetch(timeoutMs: number): { fetch: typeof globalThis.fetch; close(): Promise<void> } {
  let dispatcher: Agent | undefined;
  let closed = false;
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const { Agent, errors, request } = await undici();
    // Closed: refused as a destroyed Agent refuses, rather than opening connections again.
    if (closed) throw new errors.ClientDestroyedError();
    dispatcher ??= new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } });
    const res = await request(input instanceof Request ? input.url : input, {
      dispatcher,
      method: (init.method ?? 'GET') as 'POST',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: init.body as string | undefined, // the providers send JSON text
      signal: init.signal ?? undefined,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
    }
    const streamed = headers.get('content-type')?.startsWith('text/event-stream');
    // A whole JSON answer is read here (still under bodyTimeout); a stream is handed on as it comes.
    const body = streamed ? (Readable.toWeb(res.body) as ReadableStream<Uint8Array>) : await res.body.text();
    return new Response(res.statusCode === 204 ? null : body, { status: res.statusCode, headers });
  };
  return {
    fetch,
    close: async () => {
      closed = true;
      await dispatcher?.destroy();
    },
  };
}
