import type { RawData, WebSocket } from 'ws';
import { MAX_INPUT_MESSAGE_BYTES, ViewCloseCode, ViewerInput } from '../../../contract/viewer.ts';
import type { ScreencastStream } from './screencast.ts';
import { toInputCommand } from './screencastInput.ts';

/**
 * Input messages waiting for the tab at once. Each is one CDP command, answered in about a
 * millisecond; a viewer this far ahead is flooding, not typing, and its socket is closed.
 */
export const MAX_PENDING_INPUT = 200;

/** WebSocket close reasons are at most 123 bytes. */
const reasonOf = (text: string) => Buffer.from(text).subarray(0, 120).toString();

function sizeOf(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

/**
 * Read a controlling viewer's input (contract ViewerInput, one JSON object per text message) and
 * dispatch it, in order, to the tab the stream shows. A message that is binary, too big, not JSON or
 * not a ViewerInput closes this viewer's socket with 1008 and reaches nothing; a command the tab
 * refuses (it closed as the input went) is reported to `onError` and the next one goes on. Input
 * before the first frame has no page to land on and is dropped.
 */
export function acceptViewerInput(
  viewer: WebSocket,
  stream: ScreencastStream,
  opts: { onError?: (err: Error) => void } = {},
): void {
  let pending = 0;
  let chain = Promise.resolve();
  const refuse = (why: string) => stream.end(ViewCloseCode.unauthorized, reasonOf(`invalid input: ${why}`));

  viewer.on('message', (data, isBinary) => {
    if (isBinary) return refuse('binary message');
    if (sizeOf(data) > MAX_INPUT_MESSAGE_BYTES) return refuse(`over ${MAX_INPUT_MESSAGE_BYTES} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      return refuse('not JSON');
    }
    const parsed = ViewerInput.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return refuse(`${issue.path.join('.') || 'message'}: ${issue.message}`);
    }
    if (pending >= MAX_PENDING_INPUT) return refuse('too many messages at once');
    pending++;
    const input = parsed.data;
    chain = chain.then(async () => {
      try {
        const tab = stream.shown();
        if (!tab) return;
        const { method, params } = toInputCommand(input, tab.geometry);
        await tab.send(method, params);
      } catch (err) {
        opts.onError?.(err instanceof Error ? err : new Error(String(err)));
      } finally {
        pending--;
      }
    });
  });
}
