import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Flow } from '../contract/steps.ts';
import { WorkflowInput } from '../contract/workflows.ts';
import { replayFlow } from '../server/runs/engine/replay.ts';
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
});
