import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

const FORM = `<!doctype html><title>Form</title>
<label>Greeting <input id="greet"></label>
<input type="file" id="file">
<p id="echo"></p><p id="fname"></p>
<script>
  greet.addEventListener('input', () => (echo.textContent = greet.value));
  file.addEventListener('change', () => (fname.textContent = file.files[0].name + ':' + file.files[0].size));
</script>`;

test('run a workflow with a variable and a file, see each step and the outputs', async ({ authed: page, api }, testInfo) => {
  // The site the workflow works on, served by the test on loopback.
  const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(FORM));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/form`;
  try {
    const created = await api.post('/api/workflows', {
      data: {
        name: `e2e run ${Date.now()}`,
        flow: {
          title: 'Greet and upload',
          steps: [
            { type: 'navigate', url: siteUrl },
            { type: 'change', selectors: [['#greet']], value: '{{greeting}}' },
            { type: 'customStep', name: 'uploadFile', parameters: { selectors: [['#file']], file: 'report.txt' } },
            { type: 'customStep', name: 'extract', parameters: { selectors: [['#echo']], as: 'greeting' } },
            { type: 'customStep', name: 'extract', parameters: { selectors: [['#fname']], as: 'file' } },
          ],
        },
        variables: [{ name: 'greeting', type: 'string', required: true }],
      },
    });
    expect(created.status()).toBe(201);
    const workflow = (await created.json()) as { id: string; name: string };

    await page.goto(`/run?workflow=${workflow.id}`);
    await expect(page.getByLabel('Workflow', { exact: true })).toHaveValue(workflow.id);
    const greeting = page.getByLabel(/^greeting/);
    await expect(greeting).toBeVisible();
    await expectAccessible(page);

    // The variables form is generated from the schema: a required one is checked before sending.
    await page.getByRole('button', { name: 'Run workflow' }).click();
    await expect(page.getByText('greeting is required')).toBeVisible();

    await greeting.fill('Hello from e2e');
    await page.locator('input[type="file"][multiple]').setInputFiles({ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from('twelve bytes') });
    await expect(page.getByRole('list', { name: 'Files to send' })).toContainText('report.txt');
    await page.getByLabel('Metadata (JSON)').fill('{"ticket": 7}');
    await keepScreenshot(page, testInfo, 'run');
    await page.getByRole('button', { name: 'Run workflow' }).click();

    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('outcome')).toContainText('Succeeded', { timeout: 45_000 });
    const steps = page.getByRole('list', { name: 'Steps' }).getByRole('listitem');
    await expect(steps).toHaveCount(5);
    const outputs = page.getByTestId('outputs');
    await expect(outputs).toContainText('Hello from e2e');
    await expect(outputs).toContainText('report.txt:12');
    await expect(page.getByRole('img', { name: 'The page when the run ended' })).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'run-outcome');
  } finally {
    await new Promise((r) => site.close(r));
  }
});

// A flow that stops for a person: the page asks for a code, the run pauses, the person types it in
// the interactive live view, resumes, and the run reads back what was typed.
const CODE_PAGE = `<!doctype html><title>Code</title>
<style>html, body { margin: 0; height: 100% } #code { box-sizing: border-box; width: 100%; height: 100%; font-size: 48px }</style>
<input id="code" autofocus aria-label="Code">
<p id="echo" style="position: fixed; top: 0; right: 0"></p>
<script>code.addEventListener('input', () => (echo.textContent = code.value));</script>`;

test('a paused run waits for the person, who types in the live view and resumes it', async ({ authed: page, api }, testInfo) => {
  const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(CODE_PAGE));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/code`;
  try {
    const created = await api.post('/api/workflows', {
      data: {
        name: `e2e pause ${Date.now()}`,
        flow: {
          title: 'Ask for a code',
          steps: [
            { type: 'navigate', url: siteUrl },
            { type: 'customStep', name: 'pause', parameters: { message: 'Type the code 4711 into the page' } },
            { type: 'customStep', name: 'extract', parameters: { selectors: [['#echo']], as: 'code' } },
          ],
        },
        variables: [],
      },
    });
    expect(created.status()).toBe(201);
    const workflow = (await created.json()) as { id: string };

    await page.goto(`/run?workflow=${workflow.id}`);
    await page.getByRole('button', { name: 'Run workflow' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for you: Type the code 4711 into the page' })).toBeVisible({ timeout: 45_000 });
    const canvas = page.locator('.paused-run .bd-viewer canvas').first();
    await expect(canvas).toBeVisible({ timeout: 20_000 });
    // Wait for the first frame, then type through noVNC into the remote page's focused input.
    await page.waitForTimeout(1000);
    await canvas.click({ position: { x: 40, y: 200 } });
    await page.keyboard.type('4711', { delay: 80 });
    await keepScreenshot(page, testInfo, 'run-paused');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Resume the run' }).click();

    await expect(page.getByTestId('outcome')).toContainText('Succeeded', { timeout: 45_000 });
    await expect(page.getByTestId('outputs')).toContainText('4711');
    await expect(page.getByRole('heading', { name: /Waiting for you/ })).toHaveCount(0);
  } finally {
    await new Promise((r) => site.close(r));
  }
});
