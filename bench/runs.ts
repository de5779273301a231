/**
 * Run overhead: the same form flow through POST /api/run_workflow (until run_workflow_status says
 * completed) against a hand-written puppeteer-core script doing the same steps on a fresh Chromium,
 * alternating, in the same process. Prints ONE JSON line with the p50 of each and their ratio.
 * Target (issue 4): ratio at most 1.2.
 *
 *   npx tsx bench/runs.ts [iterations]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type ElementHandle } from 'puppeteer-core';
import { startServer } from '../test/helpers/server.ts';
import { formWorkflow, REPORT_BYTES } from '../test/fixtures/flows.ts';
import { startFormSite } from '../test/fixtures/formSite.ts';
import { CHROMIUM_ARGS } from '../test/fixtures/chromiumArgs.ts';

const ITERATIONS = Number(process.argv[2] ?? 5);

const p50 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The flow of fixtures/flows.ts, written by hand. */
async function handWritten(origin: string, file: string): Promise<Record<string, string>> {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.setViewport({ width: 1000, height: 700 });
    await page.goto(`${origin}/form`);
    await page.locator('#name').fill('Ada Lovelace');
    await page.locator('#email').fill('nobody@example.org');
    await page.locator('#size').fill('large');
    const input = (await page.locator('#file').waitHandle()) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(file);
    await Promise.all([page.waitForNavigation(), page.locator('#send').click()]);
    await page.waitForSelector('#result-name');
    const text = (sel: string) => page.$eval(sel, (el) => (el as HTMLElement).innerText.trim());
    return {
      name: await text('#result-name'),
      size: await text('#result-size'),
      file: await text('#result-file'),
      link: (await page.$eval('#result-link', (el) => el.getAttribute('href')))!,
    };
  } finally {
    await browser.close();
  }
}

async function main() {
  const [server, site] = await Promise.all([startServer({ WARM_POOL_SIZE: '1' }), startFormSite()]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-bench-'));
  const file = path.join(dir, 'report.txt');
  fs.writeFileSync(file, REPORT_BYTES);
  try {
    const created = await server.api('/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(formWorkflow('bench form')),
    });
    const workflowId = ((await created.json()) as { id: string }).id;

    const viaApi = async () => {
      const fd = new FormData();
      fd.append('workflow_id', workflowId);
      fd.append('variables', JSON.stringify({ site: site.origin, name: 'Ada Lovelace', size: 'large' }));
      fd.append('files', new Blob([new Uint8Array(REPORT_BYTES)]), 'report.txt');
      const res = await server.api('/api/run_workflow', { method: 'POST', body: fd });
      const body = (await res.json()) as { succeeded: boolean; session_id: string; message: string };
      if (!body.succeeded) throw new Error(`run did not start: ${body.message}`);
      for (;;) {
        const status = (await (await server.api(`/api/run_workflow_status?session_id=${body.session_id}`)).json()) as {
          completed: boolean;
          succeeded: boolean;
          message: string;
        };
        if (status.completed) {
          if (!status.succeeded) throw new Error(`run failed: ${status.message}`);
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const api: number[] = [];
    const script: number[] = [];
    // One warm-up of each, not counted.
    await viaApi();
    await handWritten(site.origin, file);
    for (let i = 0; i < ITERATIONS; i++) {
      let t = performance.now();
      await viaApi();
      api.push(performance.now() - t);
      t = performance.now();
      await handWritten(site.origin, file);
      script.push(performance.now() - t);
    }
    const round = (n: number) => Math.round(n);
    console.log(
      JSON.stringify({
        bench: 'runs',
        iterations: ITERATIONS,
        run_workflow_p50_ms: round(p50(api)),
        puppeteer_script_p50_ms: round(p50(script)),
        ratio: Math.round((p50(api) / p50(script)) * 100) / 100,
        target_ratio: 1.2,
      }),
    );
  } finally {
    await server.discard();
    await site.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
