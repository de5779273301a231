/**
 * The recorder's lag (issue 47): from a click (Playwright's mouse on the session's connect_url, a
 * trusted click as a person's through the live view is) to its step in GET /api/sessions/{id}/recorder,
 * polled every 5 ms. Baseline, in the same run: the GET alone (the floor polling puts under it).
 * Clicks alternate between two buttons 150 ms apart (within the recorder's rate).
 *
 * ONE JSON line: click-to-step p50/p95 and the GET's p50/p95.
 *
 *   npx tsx bench/recorder.ts [n=30]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { RecorderState } from '../contract/recorder.ts';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { postJson, startServer } from '../test/helpers/server.ts';
import { stats } from './lib/measure.ts';

const N = Math.max(5, Number(process.argv[2] ?? 30));
const PAGE = `<!doctype html><title>Bench</title><button id="a">One</button> <button id="b">Two</button>`;

const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const server = await startServer();
try {
  const created = await postJson(server, '/api/create_workflow_session', { workflow_name: 'bench', start_url: origin });
  const session = CreateWorkflowSessionResponse.parse(await created.json());
  const id = session.session_id!;
  const start = await server.api(`/api/sessions/${id}/recorder`, { method: 'POST' });
  if (start.status !== 201) throw new Error(`recorder start answered ${start.status}: ${await start.text()}`);
  const read = async () => RecorderState.parse(await (await server.api(`/api/sessions/${id}/recorder`)).json());
  const browser = await chromium.connectOverCDP(session.connect_url!);
  const page = browser
    .contexts()[0]!
    .pages()
    .find((p) => p.url().startsWith(origin))!;
  const lags: number[] = [];
  const gets: number[] = [];
  for (let i = 0; i < N; i++) {
    const before = (await read()).flow.steps.length;
    const began = performance.now();
    await page.mouse.click(...(await centre(i % 2 ? '#b' : '#a')));
    for (;;) {
      if ((await read()).flow.steps.length > before) break;
      if (performance.now() - began > 10_000) throw new Error(`click ${i} was not recorded within 10 s`);
      await new Promise((r) => setTimeout(r, 5));
    }
    lags.push(performance.now() - began);
    const g = performance.now();
    await read();
    gets.push(performance.now() - g);
    await new Promise((r) => setTimeout(r, 150));
  }
  await browser.close();
  const { flow, warnings } = await read();
  console.log(
    JSON.stringify({
      bench: 'recorder',
      n: N,
      clickToStep_ms: stats(lags),
      get_ms: stats(gets),
      steps: flow.steps.length,
      warnings,
    }),
  );

  async function centre(selector: string): Promise<[number, number]> {
    const box = (await page.locator(selector).boundingBox())!;
    return [box.x + box.width / 2, box.y + box.height / 2];
  }
} finally {
  await server.discard();
  site.close();
}
