// The one fake allowed: an OpenAI-compatible chat-completions server for the writer, on loopback.
// It streams FAKE_TEXT word by word so the dashboard's streaming can be seen.
import http from 'node:http';

export const FAKE_TEXT =
  'The harbour woke slowly that morning. Gulls argued over the nets while the first boats slid out past the breakwater, ' +
  'their engines low and patient. By noon the fog had lifted and the whole town smelled of salt and bread.';
const WORDS = FAKE_TEXT.split(' ');
const DELAY_MS = 60;

function chunk(id, delta, finish = null, usage) {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
}

export function startFakeModel(port) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(body || '{}');
      const usage = { prompt_tokens: 12, completion_tokens: WORDS.length, total_tokens: 12 + WORDS.length };
      const id = `chatcmpl-${Date.now()}`;
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id, object: 'chat.completion', created: 0, model: 'fake', choices: [{ index: 0, message: { role: 'assistant', content: FAKE_TEXT }, finish_reason: 'stop' }], usage }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk(id, { role: 'assistant', content: '' }));
      for (let i = 0; i < WORDS.length && !res.destroyed; i++) {
        res.write(chunk(id, { content: (i ? ' ' : '') + WORDS[i] }));
        await new Promise((r) => setTimeout(r, DELAY_MS));
      }
      res.write(chunk(id, {}, 'stop'));
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
