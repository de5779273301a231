/**
 * What recording a session's network costs the server, one JSON line: a page that makes 200
 * fetches (2 KB JSON each, bodies read into the record) against the same page making none, loaded
 * over raw CDP (no Playwright in this process, which would read the Network events too; the site
 * is a process of its own), `rounds` times each. Figures: the server process's CPU per load (its hub forwarding the events and the
 * recorder filling the record; the browser is another process) and the load's wall time, p50.
 *
 *   npx tsx bench/network.ts [rounds]
 */
import { spawn } from 'node:child_process';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { connectCdp } from '../test/helpers/cdpSocket.ts';
import { postJson, startServer } from '../test/helpers/server.ts';

const ROUNDS = Number(process.argv[2] ?? 10);
const FETCHES = 200;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (n: number) => Math.round(n * 10) / 10;

/** The site, in a process of its own: its CPU is not the server's. */
const SITE = `
const http = require('node:http');
const json = JSON.stringify({ items: Array.from({ length: 40 }, (_, i) => ({ id: i, name: 'item number ' + i })) });
const page = (n) => '<!doctype html><title>loading</title><script>(async () => { for (let i = 0; i < ' + n + '; i++) await (await fetch("/data?i=" + i)).text(); document.title = "done"; })();</script>';
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/data')) { res.writeHead(200, { 'content-type': 'application/json' }); return res.end(json); }
  res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
  res.end(page(req.url.startsWith('/many') ? ${FETCHES} : 0));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function main() {
  const site = spawn(process.execPath, ['-e', SITE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    site.stdout.once('data', (d: Buffer) => resolve(Number(d.toString()))),
  );
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer();
  try {
    const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'bench network' });
    const session = CreateWorkflowSessionResponse.parse(await res.json());
    const cdp = await connectCdp(session.connect_url!);
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: targetInfos.find((t) => t.type === 'page')!.targetId,
      flatten: true,
    });
    const load = async (path: string) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      await cdp.send('Page.navigate', { url: `${origin}${path}?r=${Math.random()}` }, sessionId);
      // One call that waits in the page (a poll from here would be counted): retried while the old document goes.
      for (;;) {
        const answer = await cdp
          .send<{ result: { value?: string } }>(
            'Runtime.evaluate',
            {
              expression: `new Promise((r) => { const t = setInterval(() => document.title === 'done' && (clearInterval(t), r(location.pathname)), 5); })`,
              awaitPromise: true,
              returnByValue: true,
            },
            sessionId,
          )
          .catch(() => undefined);
        if (answer?.result.value === path) break;
      }
      const used = process.cpuUsage(cpu);
      return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
    };
    await load('/many'); // warm-up
    const many: { cpuMs: number; wallMs: number }[] = [];
    const none: { cpuMs: number; wallMs: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      many.push(await load('/many'));
      none.push(await load('/none'));
    }
    const cpuMany = p50(many.map((m) => m.cpuMs));
    const cpuNone = p50(none.map((m) => m.cpuMs));
    console.log(
      JSON.stringify({
        bench: 'network',
        rounds: ROUNDS,
        fetches_per_page: FETCHES,
        server_cpu_per_load_p50_ms: { with_fetches: round(cpuMany), without: round(cpuNone) },
        server_cpu_per_request_us: round(((cpuMany - cpuNone) / FETCHES) * 1000),
        load_wall_p50_ms: {
          with_fetches: round(p50(many.map((m) => m.wallMs))),
          without: round(p50(none.map((m) => m.wallMs))),
        },
      }),
    );
    cdp.close();
  } finally {
    await server.discard();
    site.kill();
  }
}

await main();
