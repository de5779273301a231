/** One server-sent event as it came: its event name ('message' when none), its data line, or the comment it is. */
export interface SseBlock {
  event: string;
  data?: string;
  comment?: string;
}

/** The events of a text/event-stream response, one at a time as they arrive; ends with the stream. */
export async function* sseBlocks(res: Response): AsyncGenerator<SseBlock> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2);
      yield {
        event: field('event') ?? 'message',
        data: field('data'),
        comment: block.startsWith(': ') ? block.slice(2) : undefined,
      };
    }
  }
}
