/**
 * The agent tools over MCP, one JSON line:
 * - what a tool call adds over the same work done directly over CDP, p50: browser_press_key
 *   against Playwright's keyboard.press on the same session (the MCP request, the tool's checks,
 *   the session event), and browser_snapshot against page.ariaSnapshot({mode: 'ai'}) on a small page;
 * - a snapshot of a large page (5,000 links): browser_snapshot's first part at the default budget
 *   against ariaSnapshot alone, p50;
 * - a heavy page (bench/heavyPage.ts: 5,000 links, tables, a form, ~400 KB): 20 browser_snapshot
 *   calls one after another against 20 of Playwright's ariaSnapshot on the same page, p50 and p95,
 *   how many answered, and 20 calls at once (what failed at 15 s on a busy host), with the load average.
 *
 *   npx tsx bench/mcp.ts [rounds]
 */
import http from 'node:http';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { listenOnLoopback } from '../test/fixtures/loopback.ts';
import { callTool, mcpClient } from '../test/helpers/mcpClient.ts';
import { postJson, startServer } from '../test/helpers/server.ts';
import { heavyPage } from './heavyPage.ts';

const ROUNDS = Number(process.argv[2] ?? 30);
const BIG_ROUNDS = Math.max(3, Math.floor(ROUNDS / 6));

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;
const round = (n: number) => Math.round(n * 10) / 10;
const HEAVY_CALLS = 20;

async function timed(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function main() {
  const links = Array.from({ length: 5000 }, (_, i) => `<a href="/l/${i}">Link number ${i}</a>`).join('<br>');
  const heavy = heavyPage();
  const site = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      req.url === '/big'
        ? `<title>big</title>${links}`
        : req.url === '/heavy'
          ? heavy
          : '<title>small</title><h1>Order</h1><label>Name <input></label><button>Send</button><a href="/x">More</a>',
    );
  });
  const { origin, close: closeSite } = await listenOnLoopback(site);
  const server = await startServer();
  const client = await mcpClient(server);
  try {
    // The agent's session, driven over MCP.
    const created = await callTool(client, 'session_create', {
      workflow_name: 'bench mcp',
      start_url: `${origin}/small`,
    });
    const viaMcp = (JSON.parse((created.content[0] as { text: string }).text) as { session_id: string }).session_id;
    // Another session, driven directly over its connect_url.
    const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'bench direct' });
    const direct = CreateWorkflowSessionResponse.parse(await res.json());
    const browser = await chromium.connectOverCDP(direct.connect_url!);
    const page = browser.contexts()[0]!.pages()[0]!;
    await page.goto(`${origin}/small`);

    const keyDirect = await timed(ROUNDS, () => page.keyboard.press('Shift'));
    const keyTool = await timed(ROUNDS, () =>
      callTool(client, 'browser_press_key', { session_id: viaMcp, key: 'Shift' }),
    );
    const snapDirect = await timed(ROUNDS, () => page.ariaSnapshot({ mode: 'ai' }));
    const snapTool = await timed(ROUNDS, () => callTool(client, 'browser_snapshot', { session_id: viaMcp }));

    await page.goto(`${origin}/big`);
    await callTool(client, 'browser_navigate', { session_id: viaMcp, url: `${origin}/big` });
    const bigDirect = await timed(BIG_ROUNDS, () => page.ariaSnapshot({ mode: 'ai' }));
    const bigTool = await timed(BIG_ROUNDS, () => callTool(client, 'browser_snapshot', { session_id: viaMcp }));

    // The heavy page: each call must answer (an error counts as not answered), one after another, then all at once.
    await page.goto(`${origin}/heavy`);
    await callTool(client, 'browser_navigate', { session_id: viaMcp, url: `${origin}/heavy` });
    const loadBefore = os.loadavg();
    const heavyDirect = await timed(HEAVY_CALLS, () => page.ariaSnapshot({ mode: 'ai' }));
    let answered = 0;
    const heavyTool = await timed(HEAVY_CALLS, async () => {
      const r = await callTool(client, 'browser_snapshot', { session_id: viaMcp });
      if (!r.isError) answered++;
    });
    const burstStart = performance.now();
    const burst = await Promise.all(
      Array.from({ length: HEAVY_CALLS }, () => callTool(client, 'browser_snapshot', { session_id: viaMcp })),
    );
    const burstMs = performance.now() - burstStart;
    const loadAfter = os.loadavg();
    await browser.close();

    console.log(
      JSON.stringify({
        bench: 'mcp',
        rounds: ROUNDS,
        press_key_p50_ms: {
          direct_cdp: round(p50(keyDirect)),
          mcp_tool: round(p50(keyTool)),
          added: round(p50(keyTool) - p50(keyDirect)),
        },
        snapshot_small_p50_ms: {
          direct_cdp: round(p50(snapDirect)),
          mcp_tool: round(p50(snapTool)),
          added: round(p50(snapTool) - p50(snapDirect)),
        },
        snapshot_5000_links_p50_ms: {
          direct_cdp: round(p50(bigDirect)),
          mcp_tool_first_part: round(p50(bigTool)),
          rounds: BIG_ROUNDS,
        },
        snapshot_heavy_page: {
          html_kb: Math.round(heavy.length / 1024),
          calls: HEAVY_CALLS,
          direct_ariaSnapshot_ms: { p50: round(p50(heavyDirect)), p95: round(p95(heavyDirect)) },
          browser_snapshot_ms: { p50: round(p50(heavyTool)), p95: round(p95(heavyTool)) },
          // timed() makes one warm-up call beyond the counted ones.
          browser_snapshot_answered: `${answered} of ${HEAVY_CALLS + 1}`,
          concurrent_answered: `${burst.filter((r) => !r.isError).length} of ${HEAVY_CALLS}`,
          concurrent_all_ms: round(burstMs),
          load_average_1m: { before: round(loadBefore[0]!), after: round(loadAfter[0]!) },
          cores: os.cpus().length,
        },
      }),
    );
  } finally {
    await client.close();
    await server.discard();
    await closeSite();
  }
}

await main();
