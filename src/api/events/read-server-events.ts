import { ServerEvent } from '../../../contract/events.ts';
import { apiFetch } from '../client.ts';
import { ApiError } from '../errors.ts';
import { readSse } from '../sse.ts';

/** One event's data, or undefined when it is not JSON or not an event of the contract (a newer server's kind, say). */
export function parseServerEvent(data: string): ServerEvent | undefined {
  try {
    const parsed = ServerEvent.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * GET /events once, with the key in a header: `onOpen` once the server has accepted, `onEvent` for
 * each event that parses. Resolves when the stream ends; throws ApiError for a refusal. quiet401:
 * this runs on every page, so a bad key is left to the page's own requests to report.
 */
export async function readServerEvents(
  onOpen: () => void,
  onEvent: (event: ServerEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await apiFetch('/events', { signal, quiet401: true });
  // A proxy's or an SPA fallback's 200 is not a stream: counted as connected, it would stop the polling for nothing.
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    await res.body?.cancel();
    throw new ApiError(404, {
      error: 'not_an_event_stream',
      message: 'GET /events did not answer with an event stream.',
    });
  }
  onOpen();
  for await (const { data } of readSse(res, signal)) {
    const event = parseServerEvent(data);
    if (event) onEvent(event);
  }
}
