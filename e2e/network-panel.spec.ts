import http from 'node:http';
import { chromium, type Download } from '@playwright/test';
import { Har } from '../contract/har.ts';
import { checkAtBothWidths } from './support/atBothWidths.ts';
import { expect, test } from './support/fixtures.ts';
import { listenOnLoopback } from '../test/fixtures/loopback.ts';

// Issue 38, item 9: a session's requests in its live log (the Network filter) and its live Network
// tab (the requests so far, in full) while it runs, and in the inspector's Network table once it
// ends: a row opens its headers and body, and Download HAR saves the server's HAR with those requests.
const PAGE = `<!doctype html><title>Shop</title><h1>Shop</h1><script>
fetch('/api/items').then(() => fetch('/missing')).then(() => fetch('/api/echo', { method: 'POST', body: 'hello=1' }));
</script>`;
const COOKIE_VALUE = 'sid-e2e-network-secret';

const textOf = async (d: Download) => {
  const chunks: Buffer[] = [];
  for await (const c of await d.createReadStream()) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

test('the Network filter and the Network table show the requests, a row opens its headers, Download HAR saves them', async ({
  authed: page,
  api,
}, testInfo) => {
  const site = http.createServer((req, res) => {
    if (req.url === '/api/items')
      return res
        .writeHead(200, {
          'content-type': 'application/json',
          'x-served-by': 'e2e-site',
          'set-cookie': `sid=${COOKIE_VALUE}`,
        })
        .end('{"items":[1,2,3]}');
    if (req.url === '/missing') return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such thing');
    if (req.url === '/api/echo') return res.writeHead(200, { 'content-type': 'text/plain' }).end('echoed');
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  const { origin, close } = await listenOnLoopback(site);
  const created = await api.post('/api/create_workflow_session', {
    data: { workflow_name: `e2e network ${Date.now()}` },
  });
  expect(created.status()).toBe(200);
  const session = (await created.json()) as { session_id: string; connect_url: string };
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/sessions/${session.session_id}`);
    const log = page.getByRole('list', { name: 'Live log' });
    await expect(log).toContainText('Session started');

    // A client loads the page; its three requests reach the live log as they finish.
    const browser = await chromium.connectOverCDP(session.connect_url);
    try {
      await browser.contexts()[0]!.pages()[0]!.goto(`${origin}/shop`);
      await page.getByLabel('Show', { exact: true }).last().selectOption({ label: 'Network' });
      await expect(log).toContainText(`GET ${origin}/api/items → 200 (Fetch,`);
      await expect(log).toContainText(`GET ${origin}/missing → 404 (Fetch,`);
      await expect(log).toContainText(`POST ${origin}/api/echo → 200 (Fetch,`);
      await expect(log.getByRole('listitem').filter({ hasText: '/missing → 404' })).toHaveClass(/problem/);
      // Only requests under the filter: the session's start is not one.
      await expect(log).not.toContainText('Session started');
      await checkAtBothWidths(page, testInfo, 'network-live-log', log);

      // Its requests so far, in full, while it runs: the live log's Network tab.
      const liveTabs = page.getByRole('tablist', { name: 'Live session' });
      await liveTabs.getByRole('tab', { name: 'Network', exact: true }).click();
      const liveTable = page.getByRole('region', { name: 'Network', exact: true });
      await expect(liveTable.getByRole('button', { name: '/missing' })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Requests up to / })).toBeVisible();
      await liveTable.getByRole('button', { name: '/api/items' }).click();
      const liveDetails = page.getByRole('region', { name: `GET ${origin}/api/items` });
      await expect(liveDetails).toContainText('[redacted]');
      await expect(liveDetails).not.toContainText(COOKIE_VALUE);
      // A request made after it was read shows on Refresh.
      await browser
        .contexts()[0]!
        .pages()[0]!
        .evaluate(() => fetch('/later'));
      await page.getByRole('tabpanel', { name: 'Network' }).getByRole('button', { name: 'Refresh' }).click();
      await expect(liveTable.getByRole('button', { name: '/later' })).toBeVisible();
      await checkAtBothWidths(page, testInfo, 'network-live-table', liveTable);
    } finally {
      await browser.close();
    }

    // Ended: the inspector reads the HAR the server wrote.
    expect((await api.delete(`/api/sessions/${session.session_id}`)).status()).toBeLessThan(300);
    // Its Network tab, from the keyboard (the Log tab is the one shown first).
    const logTab = page
      .getByRole('tablist', { name: "The session's log and requests" })
      .getByRole('tab', { name: 'Log', exact: true });
    await logTab.focus({ timeout: 30_000 });
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Network', exact: true })).toHaveAttribute('aria-selected', 'true');
    const table = page.getByRole('region', { name: 'Network', exact: true });
    await expect(table).toBeVisible();
    const row = (path: string) => table.getByRole('row').filter({ has: page.getByRole('button', { name: path }) });
    await expect(row('/api/items')).toContainText(/GET\s*\/api\/items\s*200\s*fetch/);
    await expect(row('/missing')).toContainText('404');
    await expect(row('/api/echo')).toContainText('POST');

    // The keyboard opens a row: its headers (the cookie's value hidden by the server) and its body.
    const open = table.getByRole('button', { name: '/api/items' });
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(open).toHaveAttribute('aria-expanded', 'true');
    const details = page.getByRole('region', { name: `GET ${origin}/api/items` });
    await expect(details.getByRole('heading', { name: 'Response headers' })).toBeVisible();
    await expect(details).toContainText('x-served-by');
    await expect(details).toContainText('e2e-site');
    await expect(details).toContainText('[redacted]');
    await expect(details).not.toContainText(COOKIE_VALUE);
    await expect(details.getByLabel('Response body')).toHaveText('{"items":[1,2,3]}');

    const [har] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download HAR' }).click(),
    ]);
    expect(har.suggestedFilename()).toBe(`session-${session.session_id.slice(0, 8)}.har`);
    const entries = Har.parse(JSON.parse(await textOf(har))).log.entries;
    const status = (path: string) => entries.find((e) => e.request.url === `${origin}${path}`)?.response.status;
    expect([status('/shop'), status('/api/items'), status('/missing'), status('/api/echo')]).toEqual([
      200, 200, 404, 200,
    ]);

    await checkAtBothWidths(page, testInfo, 'network-inspector', page.getByRole('heading', { name: 'Network' }));
  } finally {
    await api.delete(`/api/sessions/${session.session_id}`);
    await close();
  }
});
