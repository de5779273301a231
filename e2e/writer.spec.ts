import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';
import { CHUNK_DELAY_MS } from './support/writerModel.ts';

// The fake model (e2e/support/writerModel.ts) streams this text word by word.
const FIRST_WORDS = 'The harbour woke slowly that morning.';
const WORDS = 40;

test('write with the model: the prose streams in, then the word count and usage', async ({
  authed: page,
}, testInfo) => {
  await page.goto('/writer');
  await expect(page.getByRole('heading', { level: 1, name: 'Writer' })).toBeVisible();
  await expectAccessible(page);

  const prompt = page.getByLabel('Prompt');
  await prompt.fill('A short scene in a harbour town 😀');
  await expect(page.getByText('33 / 8,000 characters')).toBeVisible();
  await page.getByRole('button', { name: 'Write' }).click();

  const prose = page.getByTestId('prose');
  // Streaming: part of the text is on screen while the write is still going.
  await expect(prose).toContainText(FIRST_WORDS);
  await expect(page.getByRole('button', { name: 'Writing…' })).toBeDisabled();
  await keepScreenshot(page, testInfo, 'writer-streaming');

  // The whole stream is some ten seconds (CHUNK_DELAY_MS a word).
  await expect(page.getByTestId('word-count')).toHaveText(String(WORDS), { timeout: 30_000 });
  await expect(prose).toContainText('smelled of salt and bread.');
  await expect(page.getByText('Output tokens:')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download .md' })).toBeVisible();

  // The write is in the history.
  await expect(page.getByRole('region', { name: 'History' })).toContainText('A short scene in a harbour town');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'writer');
});

test('an empty prompt is refused at the field without a request', async ({ authed: page }) => {
  await page.goto('/writer');
  let posted = false;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/write')) posted = true;
  });
  await page.getByRole('button', { name: 'Write' }).click();
  await expect(page.getByText('Enter a prompt.')).toBeVisible();
  await expect(page.getByLabel('Prompt')).toHaveAttribute('aria-invalid', 'true');
  expect(posted).toBe(false);
});

test('Stop ends a write mid-stream and keeps what arrived, marked incomplete and copyable; Ctrl+Enter writes', async ({
  authed: page,
}, testInfo) => {
  await page.goto('/writer');
  const prompt = page.getByLabel('Prompt');
  await prompt.fill('A scene to stop halfway');
  // The keyboard alone starts the write.
  await prompt.press('Control+Enter');
  const prose = page.getByTestId('prose');
  await expect(prose).toContainText(FIRST_WORDS);
  await page.getByRole('button', { name: 'Stop' }).click();

  await expect(page.getByRole('heading', { name: 'Result (incomplete)' })).toBeVisible();
  await expect(page.getByText('You stopped the write.')).toBeVisible();
  const kept = (await prose.textContent()) ?? '';
  expect(kept.startsWith(FIRST_WORDS)).toBe(true);
  // Stopped before the end: the last words never arrive, and no word count is shown.
  await page.waitForTimeout(WORDS * CHUNK_DELAY_MS + 500);
  await expect(prose).not.toContainText('smelled of salt and bread.');
  await expect(page.getByTestId('word-count')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Copy/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Write' })).toBeEnabled();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'writer-stopped');
});
