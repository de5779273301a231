import { expect, expectAccessible, serveHtml, shotsCopiedTo, test } from './support/fixtures.ts';

// The Sessions and Runs tables: sort, search and dates asked of the server and kept in the URL, rows opened by mouse and by
// keyboard, bulk end with a confirmation, and both widths (1280, 390) without sideways scrolling, axe clean.

const noSideways = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const shot = shotsCopiedTo((name) => (process.env.E2E_SHOTS ? `${process.env.E2E_SHOTS}/${name}.png` : undefined));

test('sessions table: sort, search and dates in the URL, row opens, bulk end of the selected live sessions', async ({
  authed: page,
  api,
}, testInfo) => {
  const tag = `t${Date.now().toString(36)}`;
  const start = async (name: string) => {
    const res = await api.post('/api/create_workflow_session', { data: { workflow_name: name } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { session_id: string }).session_id;
  };
  const alpha = await start(`${tag} alpha`);
  const bravo = await start(`${tag} bravo`);
  const gone = await start(`${tag} charlie ended`);
  expect((await api.delete(`/api/sessions/${gone}`)).status()).toBe(200);
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/sessions');
    const rows = page.locator('tbody tr');
    const row = (id: string) => page.locator(`tr[data-session-id="${id}"]`);
    await expect(row(alpha)).toBeVisible();

    // Search is the server's, over every session (not only the loaded ones), and sits in the URL.
    const searched = page.waitForRequest((r) => new URL(r.url()).searchParams.get('q') === tag);
    await page.getByLabel('Search').fill(tag);
    expect(new URL((await searched).url()).pathname).toBe('/api/sessions');
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
    await expect(rows).toHaveCount(3);
    await expect(page.getByText('3 matching sessions shown.')).toBeVisible();
    await expect(page.getByText(/loaded rows/)).toHaveCount(0);

    // Sorting by workflow, ascending then descending; the header says so.
    const workflowHeader = page.getByRole('columnheader', { name: /Workflow/ });
    const sorted = page.waitForRequest((r) => new URL(r.url()).searchParams.get('sort') === 'workflow_name');
    await workflowHeader.getByRole('button').click();
    expect(new URL((await sorted).url()).searchParams.get('order')).toBe('asc');
    await expect(workflowHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/sort=workflow%3Aasc|sort=workflow:asc/);
    await expect(rows.first()).toHaveAttribute('data-session-id', alpha);
    await workflowHeader.getByRole('button').click();
    await expect(workflowHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(rows.first()).toHaveAttribute('data-session-id', gone);
    await expect(row(gone).locator('td[data-label="End reason"]')).toHaveText('stopped');

    // A date range that excludes today leaves nothing; cleared, the rows are back. A reload keeps it all.
    await page.getByLabel('Started from').fill('2001-01-01');
    await page.getByLabel('to', { exact: true }).fill('2001-01-02');
    await expect(rows).toHaveCount(0);
    await expect(page.getByText('No session matches the search or dates.')).toBeVisible();
    await page.getByLabel('to', { exact: true }).fill('');
    await expect(rows).toHaveCount(3);
    await page.reload();
    await expect(page.getByLabel('Search')).toHaveValue(tag);
    await expect(page.getByRole('columnheader', { name: /Workflow/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByLabel('Started from')).toHaveValue('2001-01-01');
    await expect(rows).toHaveCount(3);
    expect(await noSideways(page), 'no sideways scrolling at 1280 px').toBeLessThanOrEqual(0);
    expect(
      await page.locator('.list-table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth),
      'the table fits its card at 1280 px',
    ).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await shot(page, testInfo, 'sessions-table-1280');

    // Keyboard: the first cell's link opens the session.
    await row(alpha).getByRole('link').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/sessions/${alpha}$`));
    await page.goBack();
    // Mouse: a click anywhere in the row opens it.
    await row(bravo).locator('td[data-label="Started"]').click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${bravo}$`));
    await page.goBack();

    // Bulk end: the ended one has no checkbox; select both live ones, confirm, see the outcome.
    await expect(row(gone).getByRole('checkbox')).toHaveCount(0);
    await row(alpha).getByRole('checkbox').check();
    await row(bravo).getByRole('checkbox').check();
    await expect(row(alpha)).toHaveClass(/selected/);
    await page.getByRole('button', { name: 'End 2 sessions' }).click();
    const dialog = page.getByRole('dialog', { name: 'End 2 sessions?' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'End 2 sessions' }).click();
    await expect(page.getByText('Ended 2 sessions.')).toBeVisible({ timeout: 20_000 });
    await expect(dialog).toBeHidden();
    await expect(row(alpha).getByRole('cell', { name: 'ended', exact: true })).toBeVisible();
    await expect(row(bravo).locator('td[data-label="End reason"]')).toHaveText('stopped');
    await expect(row(alpha).getByRole('checkbox')).toHaveCount(0);

    // A phone: rows are labelled blocks, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row(alpha).locator('td[data-label="Started"] time')).toBeVisible();
    expect(await noSideways(page), 'no sideways scrolling at 390 px').toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await shot(page, testInfo, 'sessions-table-390');
    // Dark: the same colours as the rest of the app, contrast still passing.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await row(alpha).getByRole('checkbox').count(); // settle
    await expectAccessible(page);
    await shot(page, testInfo, 'sessions-table-1280-dark');
  } finally {
    for (const id of [alpha, bravo]) await api.delete(`/api/sessions/${id}`);
  }
});

test('runs table: outcome, search and sort in the URL; rows open by keyboard and mouse; both widths', async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml('<!doctype html><title>Done</title><p>ok</p>');
  const tag = `r${Date.now().toString(36)}`;
  try {
    const ids: string[] = [];
    for (const [name, steps] of [
      [`${tag} ok run`, [{ type: 'navigate', url: `${site.origin}/` }]],
      [
        `${tag} broken run`,
        [
          { type: 'navigate', url: `${site.origin}/` },
          { type: 'click', selectors: [['#nope']], offsetX: 1, offsetY: 1, timeout: 500 },
        ],
      ],
    ] as const) {
      const created = await api.post('/api/workflows', { data: { name, flow: { title: name, steps }, variables: [] } });
      expect(created.status()).toBe(201);
      const run = await api.post('/api/run_workflow', {
        data: { workflow_id: ((await created.json()) as { id: string }).id },
      });
      expect(run.status()).toBe(200);
      ids.push(((await run.json()) as { session_id: string }).session_id);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/runs?q=${tag}`);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(page.locator(`tr[data-session-id="${ids[1]}"] .badge`)).toHaveText('Failed', { timeout: 45_000 });
    await expect(page.locator(`tr[data-session-id="${ids[0]}"] .badge`)).toHaveText('Succeeded', { timeout: 45_000 });

    const outcome = page.getByRole('columnheader', { name: /Outcome/ });
    await outcome.getByRole('button').click();
    await expect(outcome).toHaveAttribute('aria-sort', 'ascending');
    await expect(rows.first()).toHaveAttribute('data-session-id', ids[1]!); // failed < succeeded
    await page.getByLabel('Outcome').selectOption({ label: 'Succeeded' });
    await expect(page).toHaveURL(/status=succeeded/);
    await expect(rows).toHaveCount(1);
    await page.reload();
    await expect(page.getByLabel('Outcome')).toHaveValue('succeeded');
    await expect(page.getByLabel('Search')).toHaveValue(tag);
    await page.getByLabel('Outcome').selectOption({ label: 'All' });
    await expect(rows).toHaveCount(2);
    expect(await noSideways(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await shot(page, testInfo, 'runs-table-1280');

    await rows.first().getByRole('link').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/runs/${ids[1]}$`));
    await page.goBack();
    await page.locator(`tr[data-session-id="${ids[0]}"] td[data-label="Duration"]`).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${ids[0]}$`));
    await page.goBack();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(rows).toHaveCount(2);
    expect(await noSideways(page), 'no sideways scrolling at 390 px').toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await shot(page, testInfo, 'runs-table-390');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await shot(page, testInfo, 'runs-table-390-dark');
  } finally {
    await site.close();
  }
});
