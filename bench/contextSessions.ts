/**
 * Live sessions held and memory per session, for both kinds (issue 46). ONE JSON line:
 * - `context`: N context sessions (default 100) made in rounds of ten, each on a small local page,
 *   then each asked over its own connect_url what its page's title is (every one must answer); the
 *   PSS of every process the service started (Xvfb, Chromium and all its children, x11vnc), divided
 *   by N, with the number of shared browsers they took;
 * - `browser`: the same for B browser sessions (default 10; a hundred do not fit on a small host),
 *   and what N of them would take at that rate.
 * PSS counts a page shared between processes once, split among them, so the sum is the tree's own.
 *
 *   npx tsx bench/contextSessions.ts [N=100] [B=10]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectCdp } from '../test/helpers/cdpSocket.ts';
import { postJson, startServer } from '../test/helpers/server.ts';
import { pssKb, serviceProcesses } from '../test/helpers/processes.ts';

const N = Math.max(1, Number(process.argv[2] ?? 100));
const B = Math.max(1, Number(process.argv[3] ?? 10));

/** The session's first page's title, through its own connect_url (it answers, and shows its own page). */
async function titleOf(connectUrl: string): Promise<string> {
  const cdp = await connectCdp(connectUrl, { perMessageDeflate: false });
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; title: string }[] };
    return targetInfos.find((t) => t.type === 'page')?.title ?? '';
  } finally {
    cdp.close();
  }
}

async function hold(isolation: 'browser' | 'context', count: number, pageUrl: string) {
  const server = await startServer({ MAX_SESSIONS: '200', WARM_POOL_SIZE: '0', CONTEXT_BROWSER_IDLE_S: '600' });
  try {
    const made: { session_id: string; connect_url: string }[] = [];
    const started = performance.now();
    for (let i = 0; i < count; i += 10) {
      const round = await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, async (_, j) => {
          const res = await postJson(server, '/api/create_workflow_session', {
            workflow_name: 'memory',
            isolation,
            start_url: `${pageUrl}?n=${i + j}`,
            timeout: 3600,
          });
          if (res.status !== 200) throw new Error(`create ${i + j} answered ${res.status}: ${await res.text()}`);
          return (await res.json()) as { session_id: string; connect_url: string };
        }),
      );
      made.push(...round);
    }
    const createSeconds = (performance.now() - started) / 1000;
    // Every session answers over its own connect_url, showing its own page.
    const titles = await Promise.all(made.map((s) => titleOf(s.connect_url)));
    const answering = titles.filter((t, i) => t === `page ${i}`).length;
    // Let the browsers settle (a renderer's first allocations) before reading memory.
    await new Promise((r) => setTimeout(r, 3000));
    const processes = serviceProcesses(server.dataDir);
    const pssMb = processes.reduce((sum, p) => sum + pssKb(p.pid), 0) / 1024;
    const browsers = processes.filter((p) => p.name === 'chromium' && !/(^| )--type=/.test(p.cmdline)).length;
    return {
      sessions: count,
      answering,
      browsers,
      processes: processes.length,
      create_seconds: Math.round(createSeconds * 10) / 10,
      pss_mb_total: Math.round(pssMb),
      pss_mb_per_session: Math.round((pssMb / count) * 10) / 10,
    };
  } finally {
    await server.discard();
  }
}

async function main(): Promise<void> {
  const site = http.createServer((req, res) => {
    const n = new URL(req.url ?? '/', 'http://x').searchParams.get('n');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>page ${n}</title><h1>Session ${n}</h1><p>A small page.</p>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  try {
    const context = await hold('context', N, pageUrl);
    const browser = await hold('browser', B, pageUrl);
    console.log(
      JSON.stringify({
        bench: 'contextSessions',
        context,
        browser: { ...browser, pss_mb_for_n_sessions: Math.round(browser.pss_mb_per_session * N) },
        goals: {
          context_all_answering: context.answering === N,
          context_pss_mb_per_session: context.pss_mb_per_session,
          memory_ratio_browser_to_context:
            Math.round((browser.pss_mb_per_session / context.pss_mb_per_session) * 10) / 10,
        },
      }),
    );
  } finally {
    site.close();
  }
}

await main();
