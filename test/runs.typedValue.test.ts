import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPagesSite, type PagesSite } from './fixtures/pagesSite.ts';
import { runFlowToEnd } from './helpers/runs.ts';
import { startServer, type TestServer } from './helpers/server.ts';

// A change step whose field ends up holding something other than what was typed (seen on a busy
// host: keystrokes doubled) is typed once more (server/runs/typedValueCheck.ts). The page here
// doubles its field's value the first time it reaches the wanted text, as those doubled
// keystrokes did; a masked field rewrites every time, and keeps what it makes of it.
const PAGES: Record<string, string> = {
  '/form': `<!doctype html><title>Form</title>
    <input id="doubles" oninput="if (!this.dataset.done && this.value === 'hello') { this.dataset.done = '1'; this.value = 'hellohello'; }">
    <input id="masked" oninput="this.value = this.value.toUpperCase()">`,
};

let server: TestServer;
let site: PagesSite;
beforeAll(async () => {
  [server, site] = await Promise.all([startServer(), startPagesSite(PAGES)]);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
});

/** A step that fails unless `expression` is true of the page within a few seconds. */
const holds = (expression: string) => ({ type: 'waitForExpression', expression, timeout: 5_000 });

it('types a change step once more when its field holds something else, and leaves a masked field as it makes it', async () => {
  const { status } = await runFlowToEnd(server, {
    title: 'typed value',
    timeout: 30_000,
    steps: [
      { type: 'navigate', url: `${site.origin}/form` },
      { type: 'change', selectors: [['#doubles']], value: 'hello' },
      holds("document.querySelector('#doubles').value === 'hello'"),
      { type: 'change', selectors: [['#masked']], value: 'abc' },
      holds("document.querySelector('#masked').value === 'ABC'"),
    ],
  });
  expect(status.message).toBe('All 5 steps succeeded');
});
