import type { z } from 'zod';
import { ErrorBody } from '../../contract/errors.ts';
import { ApiError, NetworkError } from './errors.ts';
import { loadSettings, type Settings } from './settings.ts';
import { notifyUnauthorized } from './unauthorized.ts';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-encoded when a plain value; sent as is when FormData. */
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** Use these instead of the saved settings (the Settings page's test call). */
  settings?: Settings;
  /** Do not send the person to Settings on a 401 (the Settings page's own check). */
  quiet401?: boolean;
  /** Error statuses whose body is an answer, not an ErrorBody (run_workflow's 503 with succeeded false). */
  answerStatuses?: number[];
}

export function apiUrl(path: string, settings: Settings, query?: RequestOptions['query']): string {
  const url = new URL(settings.baseUrl.replace(/\/+$/, '') + path, window.location.href);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/** fetch with the base URL and X-API-Key; a non-2xx becomes an ApiError in the contract's shape. */
export async function apiFetch(path: string, opts: RequestOptions = {}): Promise<Response> {
  const settings = opts.settings ?? loadSettings();
  const url = apiUrl(path, settings, opts.query);
  const headers: Record<string, string> = {};
  if (settings.apiKey) headers['x-api-key'] = settings.apiKey;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(url, { method: opts.method ?? (body ? 'POST' : 'GET'), headers, body, signal: opts.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new NetworkError(url, err);
  }
  if (!res.ok && !opts.answerStatuses?.includes(res.status)) {
    const error = await toApiError(res);
    if (res.status === 401 && !opts.quiet401) notifyUnauthorized();
    throw error;
  }
  return res;
}

/** apiFetch, then parse the JSON answer with the contract's schema. */
export async function apiJson<T extends z.ZodType>(
  path: string,
  schema: T,
  opts: RequestOptions = {},
): Promise<z.infer<T>> {
  const res = await apiFetch(path, opts);
  if (res.status === 204) return schema.parse(undefined);
  const data: unknown = await res.json();
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError(res.status, {
      error: 'unexpected_response',
      message: `The server's answer to ${path} does not match the API: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`,
    });
  }
  return parsed.data;
}

const STATUS_WORDS: Record<number, string> = {
  400: 'The request was malformed.',
  401: 'The API key is missing or invalid.',
  404: 'Not found on this server.',
  413: 'The request is too large.',
  422: 'Some fields are invalid.',
  429: 'Too many requests; try again shortly.',
  502: 'The upstream model failed; try again.',
  503: 'The server is not configured for this.',
};

export async function toApiError(res: Response): Promise<ApiError> {
  const retry = Number(res.headers.get('retry-after'));
  let body: ErrorBody | undefined;
  try {
    const parsed = ErrorBody.safeParse(await res.json());
    if (parsed.success) body = parsed.data;
  } catch {
    // Not JSON: a server outside ours, or a proxy page.
  }
  return new ApiError(
    res.status,
    body ?? {
      error: `http_${res.status}`,
      message: STATUS_WORDS[res.status] ?? `The server answered ${res.status} ${res.statusText}.`,
    },
    Number.isFinite(retry) && retry > 0 ? retry : undefined,
  );
}
