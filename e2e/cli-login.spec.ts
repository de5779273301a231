import fs from 'node:fs';
import path from 'node:path';
import { CliAuthTicketCreated } from '../contract/cliAuth.ts';
import { createWorkflow, expect, expectAccessible, shotsCopiedTo, test } from './support/fixtures.ts';
import { cliHome, runSimplexCli, SIMPLEX_PYTHON_DIR } from './support/simplexCli.ts';

const shot = shotsCopiedTo((name) => `/tmp/cli-login-${name}.png`);
const CLI_AGENT = 'python-requests/2.28.1';

test('the approval page shows who asks, from where and when; Approve makes a key listed in Settings; 1280 and 390 px', async ({
  authed: page,
  playwright,
  baseURL,
}, testInfo) => {
  const cli = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'user-agent': CLI_AGENT } });
  const ticket = CliAuthTicketCreated.parse(await (await cli.post('/api/cli-auth/request')).json());

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(new URL(ticket.auth_url).pathname);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in a command-line client' })).toBeVisible();
  const card = page.getByRole('region', { name: 'A client asks for an API key' });
  await expect(card).toContainText(CLI_AGENT);
  await expect(card).toContainText('127.0.0.1');
  await expect(card.locator('time').first()).toHaveAttribute('datetime', /^\d{4}-/);
  await expect(card).toContainText('Approve only if you have just run simplex login yourself');
  await expectAccessible(page);
  await shot(page, testInfo, '1280');

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, testInfo, '390');

  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card.getByRole('status')).toContainText('Approved.');
  const day = new Date().toISOString().slice(0, 10);
  await expect(card).toContainText(`Simplex CLI ${day}`);
  const polled = (await (
    await cli.get('/api/cli-auth/poll', { params: { ticket_id: ticket.ticket_id, poll_token: ticket.poll_token } })
  ).json()) as { status: string; api_key?: string };
  expect(polled.status).toBe('authorized');
  // The page sees the client collect its key.
  await expect(card.getByRole('status')).toContainText('The client is logged in');
  await expectAccessible(page);
  await shot(page, testInfo, '390-collected');

  await card.getByRole('link', { name: 'Settings' }).click();
  const keys = page.getByRole('region', { name: 'API keys' });
  await expect(keys.getByRole('row').filter({ hasText: polled.api_key!.slice(0, 10) })).toContainText(
    `Simplex CLI ${day}`,
  );
  await cli.dispose();
});

test('Deny tells the client and makes no key', async ({ authed: page, playwright, baseURL }, testInfo) => {
  const cli = await playwright.request.newContext({ baseURL });
  const ticket = CliAuthTicketCreated.parse(await (await cli.post('/api/cli-auth/request')).json());
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(new URL(ticket.auth_url).pathname);
  const card = page.getByRole('region', { name: 'A client asks for an API key' });
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect(card.getByRole('status')).toContainText('Denied.');
  await expect(card.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, testInfo, 'denied');
  const polled = await cli.get('/api/cli-auth/poll', {
    params: { ticket_id: ticket.ticket_id, poll_token: ticket.poll_token },
  });
  expect(await polled.json()).toEqual({ status: 'denied' });
  await cli.dispose();
});

test.describe(() => {
  test.skip(!SIMPLEX_PYTHON_DIR, "Simplex's Python client is neither in SIMPLEX_PYTHON_DIR nor in ../shared/vendor");

  test("Simplex's own `simplex login` completes through this page, then `simplex workflows list` works with the key it saved", async ({
    authed: page,
    api,
    baseURL,
  }, testInfo) => {
    const name = `cli login e2e ${Date.now()}`;
    await createWorkflow(api, name, { title: 't', steps: [{ type: 'navigate', url: 'about:blank' }] });
    const home = cliHome();
    try {
      // The CLI polls every 2 s for up to 5 minutes; this bound only stops a hang.
      const login = runSimplexCli(['login'], { home, baseUrl: `${baseURL}/api`, timeoutMs: 150_000 });
      // The stand-in browser writes down the URL the CLI opens; the test's browser opens it, signed in.
      await expect.poll(() => fs.existsSync(home.opened), { timeout: 60_000 }).toBe(true);
      const authUrl = fs.readFileSync(home.opened, 'utf8').trim();
      expect(authUrl).toMatch(/\/cli-auth\/[0-9a-f-]{36}$/);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(new URL(authUrl).pathname);
      const card = page.getByRole('region', { name: 'A client asks for an API key' });
      await expect(card).toContainText('python-requests/');
      await card.getByRole('button', { name: 'Approve' }).click();

      const done = await login;
      expect(done.output).toContain('Logged in successfully');
      expect(done.code, done.output).toBe(0);
      await expect(card.getByRole('status')).toContainText('The client is logged in');
      await shot(page, testInfo, 'cli-logged-in');
      const credentials = path.join(home.dir, '.simplex', 'credentials');
      expect(fs.statSync(credentials).mode & 0o777).toBe(0o600);
      const saved = (JSON.parse(fs.readFileSync(credentials, 'utf8')) as { api_key: string }).api_key;
      expect(saved).toMatch(/^bd_/);

      const listed = await runSimplexCli(['workflows', 'list'], { home, baseUrl: `${baseURL}/api`, timeoutMs: 60_000 });
      expect(listed.code, listed.output).toBe(0);
      expect(listed.output).toContain(name);
      const whoami = await runSimplexCli(['whoami'], { home, baseUrl: `${baseURL}/api`, timeoutMs: 60_000 });
      expect(whoami.output).toContain('~/.simplex/credentials');
    } finally {
      home.remove();
    }
  });
});
