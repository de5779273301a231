import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionEvent } from '../../contract/sessionEvents.ts';
import { startPagesSite, type PagesSite } from '../fixtures/pagesSite.ts';
import { runsOf, storeCredential } from '../helpers/credentials.ts';
import { createWorkflow, runWorkflow, sessionLog, untilCompleted } from '../helpers/runs.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { sseBlocks } from '../helpers/sse.ts';

// Issue 44 item 3: a credential typed into a GET form goes into the next page's URL, and from there
// into every event that page makes: Navigated, NetworkRequest, a console line, an uncaught error, a
// dialog, a download's name. None of them, on any route that serves a session's events (the live
// stream and the pages of logs_url with its token and no key, the same with the key, and
// retrieve_session_logs), may carry the value.

/** The site: a GET login form, and a page that repeats its own URL everywhere a session logs. */
const PAGES: Record<string, string> = {
  '/login': `<!doctype html><title>Login</title>
    <form method="get" action="/done"><input id="pw" name="pw" type="password"></form>`,
  '/done': `<!doctype html><title>Signed in</title><p id="done">Signed in</p><script>
    const q = location.search.slice(1);
    console.log('signed in at ' + location.href);
    fetch('/echo?' + q + '#' + q);
    setTimeout(() => { throw new Error('leaked ' + q); }, 0);
    alert('you sent ' + decodeURIComponent(q));
    history.replaceState(null, '', '/done?again=' + q + '#' + q);
    const a = document.createElement('a');
    a.href = 'data:text/plain,x';
    a.download = q.replace(/[^A-Za-z0-9]/g, '') + '.txt';
    document.body.append(a);
    a.click();
    document.getElementById('done').textContent = 'done';
  </script>`,
  '/echo': 'ok',
};

let server: TestServer;
let site: PagesSite;
let origin: string;

beforeAll(async () => {
  server = await startServer();
  site = await startPagesSite(PAGES);
  origin = site.origin;
});
afterAll(async () => {
  await server?.close();
  await site?.close();
});

/** Every event of a session's live stream, read until the server ends it (after SessionEnded). */
async function streamed(url: string, init?: RequestInit): Promise<SessionEvent[]> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(90_000) });
  expect(res.status).toBe(200);
  const events: SessionEvent[] = [];
  for await (const block of sseBlocks(res)) if (block.data) events.push(SessionEvent.parse(JSON.parse(block.data)));
  return events;
}

describe('session events never carry a credential typed into a GET form', () => {
  it('on the live stream and the pages, with logs_url’s token or the key, and in retrieve_session_logs', async () => {
    // Its value is capital consonants: no 4-character run of it is in an id or a time the log holds.
    const [name, value] = await storeCredential(server, [origin]);

    const workflow_id = await createWorkflow(server, {
      name: `events_${name}`,
      flow: {
        title: 'GET form',
        timeout: 30_000,
        steps: [
          { type: 'navigate', url: `${origin}/login` },
          { type: 'change', selectors: [['#pw']], value: `{{credentials.${name}}}` },
          { type: 'keyDown', key: 'Enter' },
          { type: 'keyUp', key: 'Enter' },
          { type: 'waitForElement', selectors: [['#done']], properties: { textContent: 'done' } },
        ],
      },
    });
    const started = await runWorkflow(server, { workflow_id });
    expect(started.body.succeeded, started.body.message).toBe(true);
    const sessionId = started.body.session_id!;
    const logsUrl = started.body.logs_url!;
    // Followed live from the start: with the token alone, and with the key on the same route.
    const [byToken, byKey] = await Promise.all([
      streamed(logsUrl),
      streamed(`${server.url}/api/session/${sessionId}/stream`, { headers: { 'x-api-key': server.apiKey } }),
    ]);
    const status = await untilCompleted(server, sessionId);
    expect(status.message).toBe('All 5 steps succeeded');
    const pollUrl = logsUrl.replace('/stream?', '/events?');
    const polled = await (await fetch(`${pollUrl}&since=0&limit=500`)).json();
    const polledByKey = await (await server.api(`/api/session/${sessionId}/events?since=0&limit=500`)).json();
    const retrieved = await sessionLog(server, sessionId);

    for (const [route, body] of Object.entries({ byToken, byKey, polled, polledByKey, retrieved })) {
      const text = JSON.stringify(body);
      expect(text.length, route).toBeGreaterThan(1000);
      expect(text, route).not.toContain(value);
      // Its first piece anywhere but in screenshots' base64 (where it may turn up by chance).
      expect(runsOf(value, text), route).not.toContain(value.slice(0, 4));
    }

    // The events are there, redacted: not left out.
    const mark = `[credentials.${name}]`;
    const of = (event: SessionEvent['event']) => retrieved.filter((e) => e.event === event);
    const shown = (events: SessionEvent[]) => events.map((e) => JSON.stringify(e)).filter((e) => e.includes(mark));
    expect(shown(of('Navigated')).length, JSON.stringify(of('Navigated'))).toBeGreaterThanOrEqual(1);
    expect(shown(of('NetworkRequest')).length, JSON.stringify(of('NetworkRequest'))).toBeGreaterThanOrEqual(2);
    expect(shown(of('ConsoleMessage')), JSON.stringify(of('ConsoleMessage'))).toHaveLength(1);
    expect(shown(of('PageError')), JSON.stringify(of('PageError'))).toHaveLength(1);
    expect(shown(of('Dialog')), JSON.stringify(of('Dialog'))).toHaveLength(1);
    expect(byToken.map((e) => e.index)).toEqual(retrieved.map((e) => e.index));
  });
});
