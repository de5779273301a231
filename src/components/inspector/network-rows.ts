import type { HarEntry } from '../../../contract/har.ts';
import { formatBytes, formatDuration } from '../../lib/format.ts';

/** A body shown in the page is cut here (the server keeps up to 256 KB; Download HAR has all of that). */
export const SHOWN_BODY_CHARS = 20_000;

/** One request as the Network table shows it: every cell a short string, the full URL beside. */
export interface NetworkRow {
  method: string;
  /** The full URL, for the row's title and its details. */
  url: string;
  /** What the URL cell shows: path and query, or the whole URL when it has no path to speak of. */
  name: string;
  /** The status code, or "failed" when the request got no answer. */
  status: string;
  type: string;
  time: string;
  size: string;
  /** A failed request or an error status: shown as a problem. */
  problem: boolean;
}

/** Path and query of `url` (what tells requests to one site apart), or `url` itself when it does not parse. */
function nameOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname === '/' && !u.search ? `${u.host}/` : `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** The HAR entry as a row. The HAR says status 0 and `_error` for a request that got no answer. */
export function networkRowOf(e: HarEntry): NetworkRow {
  const failed = e.response._error !== undefined || e.response.status === 0;
  // Bytes on the wire when the browser said them (-1: it did not), else the decoded body's.
  const bytes = e.response.bodySize >= 0 ? e.response.bodySize : e.response.content.size;
  return {
    method: e.request.method,
    url: e.request.url,
    name: nameOf(e.request.url),
    status: failed ? 'failed' : String(e.response.status),
    type: e._resourceType ?? e.response.content.mimeType,
    time: formatDuration(Math.round(e.time)),
    size: failed ? '—' : formatBytes(bytes),
    problem: failed || e.response.status >= 400,
  };
}

/** A body as the details show it: its text (cut to SHOWN_BODY_CHARS), and a note of what is missing. */
export interface ShownBody {
  text: string | null;
  note: string | null;
}

function shown(text: string | undefined, serverNote: string | undefined, size: number): ShownBody {
  if (text === undefined) {
    if (serverNote) return { text: null, note: serverNote };
    return { text: null, note: size > 0 ? `Not kept (${formatBytes(size)}; only text bodies are kept)` : 'Empty' };
  }
  const cut = text.length > SHOWN_BODY_CHARS;
  const notes = [
    ...(serverNote ? [serverNote] : []),
    ...(cut ? [`the first ${SHOWN_BODY_CHARS.toLocaleString('en')} characters shown; Download HAR has the rest`] : []),
  ];
  return { text: cut ? text.slice(0, SHOWN_BODY_CHARS) : text, note: notes.length ? notes.join('; ') : null };
}

/** The request's body as kept (a GET has none). */
export const requestBodyOf = (e: HarEntry): ShownBody | null =>
  e.request.postData ? shown(e.request.postData.text, e.request.postData.comment, e.request.bodySize) : null;

/** The response's body as kept, or why it was not. */
export const responseBodyOf = (e: HarEntry): ShownBody =>
  shown(e.response.content.text, e.response.content.comment, e.response.content.size);
