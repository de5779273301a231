import { WriteResponse, WriteStreamEvent, type WriteRequest } from '../../../contract/write.ts';
import { apiFetch, apiJson } from '../client.ts';
import { ApiError } from '../errors.ts';
import { readSse } from '../sse.ts';

/**
 * POST /write/stream: calls onDelta with each piece of prose as it arrives and resolves with the
 * final /write body. A server with only the spec's POST /write (404 on /write/stream) gets the
 * plain call instead, so the text arrives at once.
 */
export async function streamWrite(
  body: WriteRequest,
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<WriteResponse> {
  let res: Response;
  try {
    res = await apiFetch('/write/stream', { body, signal });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405)) {
      const whole = await apiJson('/write', WriteResponse, { body, signal });
      onDelta(whole.text);
      return whole;
    }
    throw err;
  }
  for await (const { data } of readSse(res, signal)) {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      continue; // not one of ours (a comment-like keep-alive); skip
    }
    const parsed = WriteStreamEvent.safeParse(json);
    if (!parsed.success) continue;
    const event = parsed.data;
    if (event.type === 'delta') onDelta(event.text);
    else if (event.type === 'done') return event.response;
    else throw new ApiError(event.status, { error: event.error, message: event.message });
  }
  throw new ApiError(502, {
    error: 'stream_ended',
    message: 'The stream ended before the text was finished. Try again.',
  });
}
