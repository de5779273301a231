import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Flow } from '../contract/steps.ts';
import { WorkflowInput } from '../contract/workflows.ts';
import { protocolTimeoutFor, replayFlow } from '../server/runs/engine/replay.ts';
import { fillPlaceholders, resolveVariables } from '../server/runs/variables.ts';
import { launchChromium } from './fixtures/chromium.ts';
import { formWorkflow, REPORT_BYTES } from './fixtures/flows.ts';
import { RECORDED_ORIGIN, startFormSite, type FormSite } from './fixtures/formSite.ts';

// The replay engine on its own, against a Chromium launched here (the run path adds sessions).
let browser: Browser;
let site: FormSite;
let filesDir: string;
beforeAll(async () => {
  [browser, site] = await Promise.all([launchChromium(), startFormSite()]);
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-files-'));
  fs.writeFileSync(path.join(filesDir, 'report.txt'), REPORT_BYTES);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe('replay engine', () => {
  it('fills the form from variables, uploads a file, submits and extracts', async () => {
    const wf = WorkflowInput.parse(formWorkflow());
    const { values, issues } = resolveVariables(wf.variables, {
      site: site.origin,
      name: 'Ada Lovelace',
      size: 'large',
    });
    expect(issues).toEqual([]);
    const outcome = await replayFlow({
      connect: async () => ({ browserWSEndpoint: browser.wsEndpoint() }),
      flow: fillPlaceholders(wf.flow, values),
      filesDir,
    });
    expect(outcome.message).toBe('All 12 steps succeeded');
    expect(outcome.succeeded).toBe(true);
    const sub = site.submissions.at(-1)!;
    expect(sub).toMatchObject({ name: 'Ada Lovelace', email: 'nobody@example.org', size: 'large' });
    expect(sub.file!.name).toBe('report.txt');
    expect(sub.file!.bytes.equals(REPORT_BYTES)).toBe(true);
    expect(outcome.outputs).toEqual({
      name: 'Ada Lovelace',
      size: 'large',
      file: `report.txt (${REPORT_BYTES.length} bytes)`,
      link: `/orders/${site.submissions.length}`,
    });
    expect(outcome.results).toHaveLength(12);
    expect(outcome.results[2]).toMatchObject({
      action: 'change',
      params: { value: 'Ada Lovelace' },
      result: { ok: true },
    });
    expect(outcome.results[5]!.action).toBe('uploadFile');
    expect(outcome.screenshot!.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
  });

  it('replays a Chrome Recorder export as exported', async () => {
    const text = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/recorder-export.json'), 'utf8');
    const flow = Flow.parse(JSON.parse(text.replaceAll(RECORDED_ORIGIN, site.origin)));
    const before = site.submissions.length;
    const outcome = await replayFlow({
      connect: async () => ({ browserWSEndpoint: browser.wsEndpoint() }),
      flow,
      filesDir,
    });
    expect(outcome.message).toBe(`All ${flow.steps.length} steps succeeded`);
    expect(site.submissions.slice(before)).toEqual([
      { name: 'Grace Hopper', email: 'grace@example.org', size: 'large' },
    ]);
  });

  it('a failing selector fails the run naming the step and the cause', async () => {
    const flow = Flow.parse({
      title: 'broken',
      timeout: 1000,
      steps: [
        // The flow's 1 s is the missing button's; the page's load has a loaded host's time.
        { type: 'navigate', url: `${site.origin}/form`, timeout: 30_000 },
        { type: 'click', selectors: [['#no-such-button']], offsetX: 1, offsetY: 1 },
        { type: 'close' },
      ],
    });
    const outcome = await replayFlow({
      connect: async () => ({ browserWSEndpoint: browser.wsEndpoint() }),
      flow,
      filesDir,
    });
    expect(outcome.succeeded).toBe(false);
    expect(outcome.message).toMatch(
      /^Step 2 \(click #no-such-button\): no element matched within 1 s\. Check the selector in the workflow editor\.$/,
    );
    expect(outcome.results.map((r) => r.result.ok)).toEqual([true, false]);
    expect(browser.connected).toBe(true);
  });

  // CI caught it: a step may wait longer than one CDP call's 30 s limit, and puppeteer waits in one
  // call, so a waitForExpression with a 600 s timeout failed as "Waiting failed" at 30 s.
  it('a step waits its whole timeout, past 30 s, and succeeds when its expression turns true', async () => {
    const flow = Flow.parse({
      title: 'long wait',
      steps: [
        { type: 'navigate', url: `${site.origin}/form`, timeout: 30_000 },
        // True 33 s after its first check: past the 30 s a single CDP call had.
        {
          type: 'waitForExpression',
          expression: 'Date.now() - (window.firstCheck ??= Date.now()) > 33000',
          timeout: 120_000,
        },
      ],
    });
    const started = Date.now();
    const replayed = replayFlow({ connect: async () => ({ browserWSEndpoint: browser.wsEndpoint() }), flow, filesDir });
    const { succeeded, message } = await replayed;
    expect({ succeeded, message }).toEqual({ succeeded: true, message: 'All 2 steps succeeded' });
    expect(Date.now() - started).toBeGreaterThan(33_000);
    expect(protocolTimeoutFor(flow)).toBe(150_000);
    // A timeout past Node's longest timer would fire at once: the call's limit stays within it.
    expect(
      protocolTimeoutFor({ ...flow, timeout: 1e12, steps: [{ type: 'waitForExpression', expression: '1' }] }),
    ).toBe(2 ** 31 - 1);
  }, 120_000);
});
