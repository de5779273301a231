/**
 * The server's event loop while heavy snapshots run (issue 44 item 5), one JSON line: /api/healthz
 * asked every 100 ms (each asked once the last answered), its latency idle and then while 10
 * browser_snapshot calls on a ~3 MB page (bench/heavyPage.ts at scale 6) run at once, half of them
 * with max_tokens 100,000. The baseline is the idle latency measured in the same run; the target is
 * healthz within 1 s under that load.
 *
 *   npx tsx bench/heavySnapshots.ts [rounds]
 */
import http from 'node:http';
import os from 'node:os';
import { listenOnLoopback } from '../test/fixtures/loopback.ts';
import { callTool, mcpClient } from '../test/helpers/mcpClient.ts';
import { startServer, type TestServer } from '../test/helpers/server.ts';
import { heavyPage } from './heavyPage.ts';
import { stats } from './lib/measure.ts';

const ROUNDS = Number(process.argv[2] ?? 2);
const CALLS = 10;
const BIG_BUDGET = 100_000;

/** healthz latencies, asked one after another every `every` ms until `until` resolves. */
async function probe(server: TestServer, until: Promise<unknown>, every = 100): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const out: number[] = [];
  while (!done) {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/healthz`, { signal: AbortSignal.timeout(120_000) });
    await res.arrayBuffer();
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, every));
  }
  return out;
}

const max = (xs: number[]) => Math.round(Math.max(...xs));

async function main() {
  const heavy = heavyPage(6);
  const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(heavy));
  const { origin, close: closeSite } = await listenOnLoopback(site);
  const server = await startServer();
  const client = await mcpClient(server);
  try {
    const created = await callTool(client, 'session_create', { workflow_name: 'bench heavy', start_url: origin });
    const sessionId = (JSON.parse((created.content[0] as { text: string }).text) as { session_id: string }).session_id;
    // One snapshot first: the page is loaded and the tokenizer is in memory before anything is timed.
    await callTool(client, 'browser_snapshot', { session_id: sessionId });
    const idle = await probe(server, new Promise((r) => setTimeout(r, 3000)));
    const loaded: number[] = [];
    const calls: number[] = [];
    let answered = 0;
    const loadBefore = os.loadavg()[0]!;
    for (let round = 0; round < ROUNDS; round++) {
      const burst = Promise.all(
        Array.from({ length: CALLS }, async (_, i) => {
          const t = performance.now();
          const r = await callTool(client, 'browser_snapshot', {
            session_id: sessionId,
            ...(i % 2 ? { max_tokens: BIG_BUDGET } : {}),
          });
          calls.push(performance.now() - t);
          if (!r.isError) answered++;
        }),
      );
      loaded.push(...(await probe(server, burst)));
      await burst;
    }
    console.log(
      JSON.stringify({
        bench: 'heavySnapshots',
        html_kb: Math.round(heavy.length / 1024),
        rounds: ROUNDS,
        calls_at_once: CALLS,
        healthz_idle_ms: { ...stats(idle), max: max(idle) },
        healthz_under_load_ms: { ...stats(loaded), max: max(loaded) },
        snapshot_calls_ms: { ...stats(calls), max: max(calls) },
        answered: `${answered} of ${ROUNDS * CALLS}`,
        load_average_1m: { before: loadBefore, after: os.loadavg()[0] },
        cores: os.cpus().length,
      }),
    );
  } finally {
    await client.close();
    await server.discard();
    await closeSite();
  }
}

await main();
