import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

// Item 5 and 6 of issue 12: the live view's scale modes, and reaching (and leaving) the remote
// browser with the keyboard alone.

const REMOTE_FORM = `data:text/html,${encodeURIComponent(
  '<title>form</title><label>First <input id="first"></label><label>Second <input id="second"></label>',
)}`;

interface Session {
  id: string;
  connectUrl: string;
  vncUrl: string;
  remote: Browser;
  tab: Page;
}

/** A session made through the API, its page showing two inputs, the first one focused. */
async function sessionWithForm(api: import('@playwright/test').APIRequestContext): Promise<Session> {
  const created = await api.post('/api/create_workflow_session', { data: { workflow_name: 'e2e keyboard' } });
  expect(created.status()).toBe(200);
  const body = (await created.json()) as { session_id: string; connect_url: string; vnc_url: string };
  const remote = await chromium.connectOverCDP(body.connect_url);
  const context = remote.contexts()[0]!;
  const tab = context.pages()[0] ?? (await context.newPage());
  await tab.goto(REMOTE_FORM);
  await tab.bringToFront();
  await tab.focus('#first');
  return { id: body.session_id, connectUrl: body.connect_url, vncUrl: body.vnc_url, remote, tab };
}

/** Press Tab until the remote screen has focus; fails if it is never reached. */
async function tabToRemoteScreen(page: Page): Promise<void> {
  const canvas = page.locator('.bd-viewer canvas');
  for (let i = 0; i < 60; i++) {
    if (await canvas.evaluate((c) => c === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(canvas, 'Tab reaches the remote screen').toBeFocused();
}

async function pressLeaveChord(page: Page): Promise<void> {
  await page.keyboard.down('Control');
  await page.keyboard.down('Alt');
  await page.keyboard.down('Shift');
  await page.keyboard.up('Shift');
  await page.keyboard.up('Alt');
  await page.keyboard.up('Control');
}

test('keyboard only: Tab to the remote screen, type into the remote page, leave with Ctrl+Alt+Shift', async ({
  authed: page,
  api,
}, testInfo) => {
  const s = await sessionWithForm(api);
  try {
    await page.goto(`/sessions/${s.id}`);
    await expect(page.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(/Tab to the screen .* Ctrl\+Alt\+Shift gives the keyboard back/)).toBeVisible();

    await tabToRemoteScreen(page);
    const canvas = page.locator('.bd-viewer canvas');
    await expect(canvas).toHaveAttribute('role', 'application');
    // A visible focus ring around the screen while it has the keyboard (an overlay above the screen).
    const ring = await page.locator('.bd-viewer').evaluate((el) => {
      const css = getComputedStyle(el, '::after');
      return { style: css.borderTopStyle, width: parseFloat(css.borderTopWidth) };
    });
    expect(ring.style).toBe('solid');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    // The hint that says how to leave describes the screen.
    const hintId = await canvas.getAttribute('aria-describedby');
    await expect(page.locator(`[id="${hintId}"]`)).toHaveText(
      'Keys go to the remote browser. Press Ctrl+Alt+Shift to leave it.',
    );
    await keepScreenshot(page, testInfo, 'session-remote-screen-focused');

    // Typed keys reach the remote page; Tab moves focus there, not out of the screen.
    await page.keyboard.type('typed by keyboard', { delay: 30 });
    await page.keyboard.press('Tab');
    await page.keyboard.type('then the second', { delay: 30 });
    await expect
      .poll(() => s.tab.inputValue('#first'), { message: 'the remote page received the typing', timeout: 15_000 })
      .toBe('typed by keyboard');
    await expect.poll(() => s.tab.inputValue('#second'), { timeout: 15_000 }).toBe('then the second');
    await expect(canvas).toBeFocused();

    // The documented chord gives the keyboard back: focus moves on to what follows the screen.
    await pressLeaveChord(page);
    await expect(canvas).not.toBeFocused();
    await expect(page.locator('summary', { hasText: 'Clipboard' })).toBeFocused();
    expect(await page.locator('.bd-viewer').evaluate((el) => getComputedStyle(el, '::after').content)).toBe('none');

    // Back in with Shift+Tab: no modifier of the chord was left held on the remote side.
    await page.keyboard.press('Shift+Tab');
    await expect(canvas).toBeFocused();
    await page.keyboard.type('!ok', { delay: 30 });
    await expect.poll(() => s.tab.inputValue('#second'), { timeout: 15_000 }).toBe('then the second!ok');
    await expectAccessible(page);
  } finally {
    await s.remote.close();
    await api.delete(`/api/sessions/${s.id}`);
  }
});

test('the live view tabs move focus with the arrow keys, and the embed viewer is reached and left by keyboard', async ({
  authed: page,
  api,
}) => {
  const s = await sessionWithForm(api);
  try {
    await page.goto(`/sessions/${s.id}`);
    const interactive = page.getByRole('tab', { name: 'Interactive (noVNC)' });
    const livestream = page.getByRole('tab', { name: 'Livestream' });
    await interactive.focus();
    await page.keyboard.press('ArrowRight');
    await expect(livestream).toBeFocused();
    await expect(livestream).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await expect(interactive).toBeFocused();
    await expect(interactive).toHaveAttribute('aria-selected', 'true');
    // They wrap, and End and Home go to the last and the first.
    await page.keyboard.press('ArrowLeft');
    await expect(livestream).toBeFocused();
    await page.keyboard.press('Home');
    await expect(interactive).toBeFocused();
    await page.keyboard.press('End');
    await expect(livestream).toBeFocused();
    await expect(livestream).toHaveAttribute('aria-selected', 'true');

    // The white-label page: the screen is its first Tab stop; with nothing after it, the chord
    // leaves focus on the viewer itself, so the next Tab goes on to the page that embeds it.
    await page.goto(s.vncUrl);
    await expect(page.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
    await page.keyboard.press('Tab');
    await expect(page.locator('.bd-viewer canvas')).toBeFocused();
    await page.keyboard.type('embed', { delay: 30 });
    await expect.poll(() => s.tab.inputValue('#first'), { timeout: 15_000 }).toBe('embed');
    await pressLeaveChord(page);
    await expect(page.locator('.bd-viewer')).toBeFocused();
  } finally {
    await s.remote.close();
    await api.delete(`/api/sessions/${s.id}`);
  }
});

for (const width of [1280, 390]) {
  test(`at ${width} px the 1:1 scale scrolls and there is no "resize the remote screen" mode`, async ({
    authed: page,
    api,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    const s = await sessionWithForm(api);
    try {
      await page.goto(`/sessions/${s.id}`);
      await expect(page.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
      // The live view's own Scale, in its bar over the screen (the Embed panel has one for the embed's URL).
      const scale = page.getByRole('region', { name: 'Live browser', exact: true }).getByLabel('Scale');
      await expect(scale.locator('option')).toHaveText(['Fit to the frame', 'None (1:1, scroll)']);
      await keepScreenshot(page, testInfo, `session-fit-${width}`);

      await scale.selectOption('none');
      // noVNC's screen element holds the 1280x720 canvas at full size and scrolls to show all of it.
      const screen = page.locator('.bd-viewer__screen > div');
      await expect
        .poll(() =>
          page.locator('.bd-viewer canvas').evaluate((c: HTMLCanvasElement) => c.getBoundingClientRect().width),
        )
        .toBe(1280);
      const box = await screen.evaluate((el) => ({
        overflow: getComputedStyle(el).overflow,
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
      }));
      expect(box.overflow).toBe('auto');
      expect(box.scrollWidth).toBeGreaterThanOrEqual(1280);
      expect(box.scrollWidth).toBeGreaterThan(box.clientWidth);
      await screen.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      expect(await screen.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
      // The dashboard page itself does not grow wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await keepScreenshot(page, testInfo, `session-one-to-one-${width}`);
    } finally {
      await s.remote.close();
      await api.delete(`/api/sessions/${s.id}`);
    }
  });
}

test('the delete dialog opens focused on Cancel; Escape keeps the workflow and gives focus back', async ({
  authed: page,
  api,
}) => {
  const name = `e2e keep me ${Date.now()}`;
  const created = await api.post('/api/workflows', {
    data: { name, flow: { title: 'Keep', steps: [] }, variables: [] },
  });
  expect(created.status()).toBe(201);
  await page.goto('/workflows');
  const remove = page.getByRole('button', { name: `Delete ${name}` });
  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete this workflow?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(1);
});
