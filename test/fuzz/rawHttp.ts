import net from 'node:net';

/**
 * HTTP/1.1 over a plain socket: the fuzzer writes exactly the bytes it means (any header, any
 * content type, invalid UTF-8, a Content-Length that lies), which fetch would refuse or mend.
 */

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface RawRequest {
  method: string;
  target: string;
  /** Header lines as written, in order ("name: value"); Host and Connection: close are added first. */
  headers: string[];
  body?: Buffer;
}

/** Bytes kept of a response body: enough to check its shape. */
const MAX_BODY = 256 * 1024;

/**
 * Send one request (Connection: close) and read the final response (1xx skipped). Resolves with
 * undefined when the server closed without answering, or `timeoutMs` passed (then `timedOut`).
 * A text/event-stream answer is read up to its headers only.
 */
export function rawRequest(
  port: number,
  req: RawRequest,
  opts: { timeoutMs: number; endAfterWrite?: boolean },
): Promise<{ response?: RawResponse; timedOut: boolean; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    const finish = (result: { response?: RawResponse; timedOut: boolean; error?: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ response: parse(data, true), timedOut: !parse(data, true) }),
      opts.timeoutMs,
    );
    socket.on('error', (err) => finish({ response: parse(data, true), timedOut: false, error: err.message }));
    socket.on('data', (chunk: Buffer) => {
      if (data.length < MAX_BODY * 2) data = Buffer.concat([data, chunk]);
      const r = parse(data, false);
      if (r) finish({ response: r, timedOut: false });
    });
    socket.on('close', () => finish({ response: parse(data, true), timedOut: false }));
    socket.on('connect', () => {
      const head =
        [`${req.method} ${req.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...req.headers].join(
          '\r\n',
        ) + '\r\n\r\n';
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), req.body ?? Buffer.alloc(0)]));
      if (opts.endAfterWrite) socket.end();
    });
  });
}

/** The final response in `data` once it is whole (or, at `eof`, whatever there is of it); undefined before. */
function parse(data: Buffer, eof: boolean): RawResponse | undefined {
  let start = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', start);
    if (end < 0) return undefined;
    const lines = data.subarray(start, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!m) return undefined;
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      start = bodyStart;
      continue;
    }
    const rest = data.subarray(bodyStart);
    if ((headers['content-type'] ?? '').startsWith('text/event-stream'))
      return { status, headers, body: Buffer.alloc(0) };
    const length = headers['content-length'];
    if (length !== undefined) {
      if (rest.length >= Number(length) || eof) return { status, headers, body: rest.subarray(0, Number(length)) };
      if (rest.length >= MAX_BODY) return { status, headers, body: rest };
      return undefined;
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(rest);
      if (body) return { status, headers, body };
      return eof || rest.length >= MAX_BODY ? { status, headers, body: rest } : undefined;
    }
    return eof ? { status, headers, body: rest } : undefined;
  }
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = data.indexOf('\r\n', at);
    if (line < 0) return undefined;
    const size = parseInt(data.subarray(at, line).toString('latin1'), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < line + 2 + size + 2) return undefined;
    parts.push(data.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}
