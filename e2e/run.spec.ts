import http from 'node:http';
import { expect, expectAccessible, keepScreenshot, serveHtml, test } from './support/fixtures.ts';
import { listenOnLoopback } from '../test/fixtures/loopback.ts';

const FORM = `<!doctype html><title>Form</title>
<label>Greeting <input id="greet"></label>
<input type="file" id="file">
<p id="echo"></p><p id="fname"></p>
<script>
  greet.addEventListener('input', () => (echo.textContent = greet.value));
  file.addEventListener('change', () => (fname.textContent = file.files[0].name + ':' + file.files[0].size));
</script>`;

test('run a workflow with a variable and a file, see each step and the outputs', async ({
  authed: page,
  api,
}, testInfo) => {
  // The site the workflow works on, served by the test on loopback.
  const site = await serveHtml(FORM);
  const siteUrl = `${site.origin}/form`;
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
    await page
      .locator('input[type="file"][multiple]')
      .setInputFiles({ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from('twelve bytes') });
    await expect(page.getByRole('list', { name: 'Files to send' })).toContainText('report.txt');
    await page.getByLabel('Metadata', { exact: true }).fill('ticket-7');
    await keepScreenshot(page, testInfo, 'run');
    await page.getByRole('button', { name: 'Run workflow' }).click();

    // The page moves on once the run's browser has started.
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/, { timeout: 30_000 });
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
    await site.close();
  }
});

// A flow that stops for a person: the page asks for a code, the run pauses, the person types it in
// the interactive live view, resumes, and the run reads back what was typed.
const CODE_PAGE = `<!doctype html><title>Code</title>
<style>html, body { margin: 0; height: 100% } #code { box-sizing: border-box; width: 100%; height: 100%; font-size: 48px }</style>
<input id="code" autofocus aria-label="Code">
<p id="echo" style="position: fixed; top: 0; right: 0"></p>
<script>code.addEventListener('input', () => (echo.textContent = code.value));</script>`;

test('a paused run waits for the person, who types in the live view and resumes it', async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml(CODE_PAGE);
  const siteUrl = `${site.origin}/code`;
  try {
    const created = await api.post('/api/workflows', {
      data: {
        name: `e2e pause ${Date.now()}`,
        flow: {
          title: 'Ask for a code',
          steps: [
            { type: 'navigate', url: siteUrl },
            { type: 'customStep', name: 'pause', parameters: { message: 'Type the code 4711 into the page' } },
            // The keys reach the page through VNC and X in their own time, maybe after the resume.
            {
              type: 'waitForExpression',
              expression: "document.getElementById('echo').textContent.includes('4711')",
              timeout: 30_000,
            },
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
    await expect(page.getByRole('heading', { name: 'Waiting for you: Type the code 4711 into the page' })).toBeVisible({
      timeout: 45_000,
    });
    const canvas = page.locator('.paused-run .bd-viewer canvas').first();
    await expect(canvas).toBeVisible({ timeout: 20_000 });
    // Connected, then type through noVNC into the remote page's focused input.
    await expect(page.locator('.paused-run .bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
    await canvas.click({ position: { x: 40, y: 200 } });
    await page.keyboard.type('4711', { delay: 80 });
    await keepScreenshot(page, testInfo, 'run-paused');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Resume the run' }).click();

    await expect(page.getByTestId('outcome')).toContainText('Succeeded', { timeout: 45_000 });
    await expect(page.getByTestId('outputs')).toContainText('4711');
    await expect(page.getByRole('heading', { name: /Waiting for you/ })).toHaveCount(0);
  } finally {
    await site.close();
  }
});

// An ended run's inspector: the recording plays and seeks from the timeline, the downloaded file
// comes down with its bytes.
const DOWNLOAD_PAGE = `<!doctype html><title>Report</title>
<a id="dl" href="/report.txt" download="report.txt">Get the report</a>`;

test("an ended run's inspector plays its recording, seeks from the timeline and hands out its download", async ({
  authed: page,
  api,
}, testInfo) => {
  const site = http.createServer((req, res) => {
    if (req.url === '/report.txt')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('quarterly figures\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end(DOWNLOAD_PAGE);
  });
  const served = await listenOnLoopback(site);
  const siteUrl = `${served.origin}/`;
  try {
    const created = await api.post('/api/workflows', {
      data: {
        name: `e2e inspector ${Date.now()}`,
        flow: {
          title: 'Download a report',
          steps: [
            { type: 'navigate', url: siteUrl },
            { type: 'waitForExpression', expression: 'performance.now() > 1500' },
            { type: 'click', selectors: [['#dl']], offsetX: 5, offsetY: 5 },
            { type: 'waitForExpression', expression: 'performance.now() > 3500' },
          ],
        },
        variables: [],
      },
    });
    expect(created.status()).toBe(201);
    const workflow = (await created.json()) as { id: string };
    const run = await api.post('/api/run_workflow', { form: { workflow_id: workflow.id } });
    expect(run.status()).toBe(200);
    const { session_id: sessionId } = (await run.json()) as { session_id: string };

    await page.goto(`/runs/${sessionId}`);
    await expect(page.getByTestId('outcome')).toContainText('Succeeded', { timeout: 45_000 });
    const video = page.getByLabel("Recording of the session's screen");
    await expect(video).toBeVisible({ timeout: 20_000 });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
    expect(duration).toBeGreaterThan(2);
    await video.evaluate((v: HTMLVideoElement) => v.play());
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
    await video.evaluate((v: HTMLVideoElement) => v.pause());

    // The click step happened about 1.5 s in (after the page was 1.5 s old, and before the run's last
    // step and its end, however long the page took to load): its timeline entry seeks the video there.
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByRole('button', { name: /Step 3 \(click\)/ }).click();
    const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    expect(at).toBeGreaterThan(1);
    expect(at).toBeLessThan(duration);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'report.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report.txt');
    const body = await download.createReadStream().then(async (s) => {
      const chunks: Buffer[] = [];
      for await (const c of s) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    });
    expect(body).toBe('quarterly figures\n');
    await page.getByLabel('Show').selectOption('downloads');
    await expect(page.getByRole('list', { name: 'Log' })).toContainText('Downloaded report.txt');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'run-inspector');
  } finally {
    await served.close();
  }
});

test('a failed step is named from 1 with its selector, and a 2000-character URL never widens the page', async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml('<!doctype html><title>Long</title><p>here</p>');
  const longUrl = `${site.origin}/${'a'.repeat(1960)}?q=${'b'.repeat(20)}`;
  expect(longUrl.length).toBeGreaterThanOrEqual(2000);
  try {
    const created = await api.post('/api/workflows', {
      data: {
        name: `e2e long ${Date.now()}`,
        flow: {
          title: 'Long URL, missing element',
          timeout: 1000,
          steps: [
            // The flow's 1 s is the missing element's; the page's load has a loaded host's time.
            { type: 'navigate', url: longUrl, timeout: 30_000 },
            { type: 'click', selectors: [['#does-not-exist']], offsetX: 1, offsetY: 1 },
          ],
        },
      },
    });
    expect(created.status()).toBe(201);
    const workflow = (await created.json()) as { id: string };
    const run = await api.post('/api/run_workflow', { multipart: { workflow_id: workflow.id } });
    expect(run.status()).toBe(200);
    const { session_id } = (await run.json()) as { session_id: string };

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/runs/${session_id}`);
    const outcome = page.getByTestId('outcome');
    await expect(outcome).toContainText('Failed at step 2 of 2.', { timeout: 45_000 });
    const steps = page.getByRole('list', { name: 'Steps' }).getByRole('listitem');
    await expect(steps.first()).toContainText('1.');
    await expect(steps.nth(1)).toContainText('2.');
    // The flow's own timeout (1 s) is the one the step waited for, as the message says, once, in
    // words: the library's own "Timed out after waiting 1000ms" stays in the API's step result.
    await expect(steps.nth(1)).toContainText(
      'Step 2 (click #does-not-exist): no element matched within 1 s. Check the selector in the workflow editor.',
    );
    await expect(steps.nth(1)).not.toContainText('Timed out after waiting');
    // The inspector below (timeline, log) shows the URL too: nothing may scroll sideways.
    await expect(page.getByRole('heading', { name: 'What happened' })).toBeVisible({ timeout: 20_000 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'run-failed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      'no sideways scrolling at 390 px',
    ).toBeLessThanOrEqual(0);
    await keepScreenshot(page, testInfo, 'run-failed-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/runs');
    await expect(page.getByRole('row').filter({ hasText: 'e2e long' }).first()).toBeVisible();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'runs-1280');
  } finally {
    await site.close();
  }
});
