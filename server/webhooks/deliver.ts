import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedDestination } from './destination.ts';

export type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * POST one signed body to a checked destination. The socket connects to the approved address
 * (a custom lookup), while Host and TLS SNI keep the URL's name; no redirects are followed.
 */
export function postOnce(
  dest: CheckedDestination,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptResult> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: dest.address, family: dest.family },
      ]);
    else callback(null, dest.address, dest.family);
  };
  const client = dest.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = client.request(
      dest.url,
      {
        method: 'POST',
        lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'browserdesk-webhooks/1.0',
          ...headers,
        },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        res.resume(); // the body is not used; drain it so the socket is freed
        const status = res.statusCode ?? 0;
        res.on('end', () =>
          resolve(
            status >= 200 && status < 300
              ? { ok: true, status }
              : { ok: false, status, error: `destination answered ${status}` },
          ),
        );
        res.on('error', () =>
          resolve({ ok: false, status, error: `destination answered ${status} and reset the connection` }),
        );
      },
    );
    req.on('error', (err) =>
      resolve({
        ok: false,
        status: null,
        error:
          err.name === 'AbortError' || err.name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : `request failed: ${err.message}`,
      }),
    );
    req.end(body);
  });
}
