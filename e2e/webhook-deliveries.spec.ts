import { startReceiver } from '../test/fixtures/webhookReceiver.ts';
import AxeBuilder from '@axe-core/playwright';
import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

interface Listed {
  items: { event: string; url: string; status: string }[];
}

test('webhook deliveries in Settings: a gone destination opened and retried from the keyboard; 1280 and 390 px', async ({
  authed: page,
  api,
}, testInfo) => {
  // Answers 410 Gone first (the delivery is disabled, and so is the next one), then 200.
  const receiver = await startReceiver([410, 200]);
  try {
    const created = await api.post('/api/create_workflow_session', {
      data: { workflow_name: 'e2e deliveries', webhook_url: receiver.url },
    });
    expect(created.status()).toBe(200);
    const { session_id } = (await created.json()) as { session_id: string };
    const ours = async () =>
      ((await (await api.get('/api/webhooks/deliveries?limit=100')).json()) as Listed).items
        .filter((d) => d.url === receiver.url)
        .map((d) => `${d.event} ${d.status}`);
    // The 410 is recorded before the session ends, so its session.ended is held back too.
    await expect.poll(ours).toEqual(['session.started disabled']);
    expect((await api.post('/api/close_workflow_session', { data: { session_id } })).status()).toBe(200);
    await expect.poll(ours).toEqual(['session.ended disabled', 'session.started disabled']);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/settings');
    const table = page.getByRole('table', { name: /Webhook deliveries, newest first/ });
    const started = table.getByRole('row').filter({ hasText: 'session.started' }).filter({ hasText: receiver.url });
    await expect(started).toContainText('Destination gone (410)');

    // A row opens its body, from the keyboard.
    const open = started.getByRole('button', { name: 'session.started' });
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(open).toHaveAttribute('aria-expanded', 'true');
    const body = page.locator('.delivery-detail pre');
    await expect(body).toContainText('"type": "session.started"');
    await expect(body).toContainText(session_id);
    await expect(page.locator('.delivery-detail')).toContainText('destination answered 410 Gone');
    await expectAccessible(page);
    // Not only serious ones: the section itself has no axe violation at all.
    const section = await new AxeBuilder({ page })
      .include('section[aria-labelledby="webhook-deliveries-title"]')
      .analyze();
    expect(section.violations.map((v) => v.id)).toEqual([]);
    await keepScreenshot(page, testInfo, 'webhook-deliveries-1280');

    const retry = started.getByRole('button', { name: 'Retry' });
    await retry.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Delivered: session.started reached' })).toContainText(
      'which answered 200',
    );
    await expect(started).toContainText('Delivered (200)');
    await expect(started.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    expect(receiver.received.map((d) => JSON.parse(d.body).type)).toEqual(['session.started', 'session.started']);

    // On a phone the page stays 390 px wide; the table scrolls inside its own box.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = page.getByRole('region', { name: 'Webhook deliveries table' });
    const { scrollWidth, clientWidth } = await box.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    await box.evaluate((el) => el.scrollIntoView());
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'webhook-deliveries-390');
  } finally {
    await receiver.close();
  }
});
