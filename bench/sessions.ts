/**
 * Session figures (issue 3), ONE JSON line:
 * - create → connect_url answers Browser.getVersion, p50/p95, with the warm pool and cold;
 * - the whole cycle (create, connectOverCDP, goto a local page, end) p50 against Playwright's own
 *   chromium.launch + goto + close, alternating in the same run;
 * - the same cycle under a steady 2 creates per second (cycles overlap), p50/p95 against the raw
 *   cycle's, with the default pool settings: the adaptive warm pool's target (p95 ≤ 0.5× raw); and
 *   at 1 a second, with the machine's CPU per cycle at each rate, which says the rate this host can
 *   start browsers at (cores / CPU per cycle): past it, a create waits for a start whatever the pool;
 * - cold create (no pool) against a raw chromium.launch (target ≤ 1.5×);
 * - how many sessions stay live at once (up to a bound) and memory per session (PSS, so pages
 *   shared between processes are not counted twice).
 *
 *   npx tsx bench/sessions.ts [iterations] [max concurrent]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { BrowserSessionManager } from '../server/sessions/sessionManager.ts';
import { connectCdp } from '../test/helpers/cdpSocket.ts';
import { postJson, startServer, type TestServer } from '../test/helpers/server.ts';
import { pssKb, serviceProcesses } from '../test/helpers/processes.ts';
import { machineBusyMs, quantile, stats } from './lib/measure.ts';

const ITERATIONS = Number(process.argv[2] ?? 10);
const MAX_CONCURRENT = Number(process.argv[3] ?? 24);

/** connect_url answers: a CdpClient connects and Browser.getVersion comes back. */
async function getVersion(connectUrl: string): Promise<void> {
  const cdp = await connectCdp(connectUrl, { perMessageDeflate: false });
  try {
    await cdp.send('Browser.getVersion');
  } finally {
    cdp.close();
  }
}

async function create(server: TestServer): Promise<{ session_id: string; connect_url: string }> {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'bench' });
  if (res.status !== 200) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { session_id: string; connect_url: string };
}

const end = (server: TestServer, id: string) =>
  server.api(`/api/sessions/${id}`, { method: 'DELETE' }).then((r) => r.arrayBuffer());

async function createToCdp(server: TestServer, warm: boolean): Promise<number[]> {
  const manager = server.app.sessions as BrowserSessionManager;
  const out: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    if (warm) await manager.whenWarm(60_000);
    const t = performance.now();
    const s = await create(server);
    await getVersion(s.connect_url);
    out.push(performance.now() - t);
    await end(server, s.session_id);
  }
  return out;
}

/** One cycle through the service: create, connect over CDP, goto, end. Milliseconds. */
async function cycleOnce(server: TestServer, pageUrl: string): Promise<number> {
  const t = performance.now();
  const s = await create(server);
  const browser = await chromium.connectOverCDP(s.connect_url);
  const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
  await page.goto(pageUrl);
  await browser.close();
  await end(server, s.session_id);
  return performance.now() - t;
}

/**
 * Cycles one after another, at most `perSecond` started a second (a client with a steady stream of
 * work): the next starts when the last has ended and its slot in the rate has come. Nothing waits
 * for the warm pool, so a create that finds it empty pays for that.
 */
async function pacedCycles(server: TestServer, pageUrl: string, perSecond: number, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const slot = performance.now() + 1000 / perSecond;
    out.push(await cycleOnce(server, pageUrl));
    const wait = slot - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  return out;
}

/** Paced cycles on a fresh server with the default pool settings, and what they cost the machine. */
async function pacedRun(
  pageUrl: string,
  perSecond: number,
): Promise<{
  cycles: number[];
  cpuMsPerCycle: { machine: number; bench_process: number };
  poolAtEnd: BrowserSessionManager['poolStats'];
}> {
  const server = await startServer({ WARM_POOL_SIZE: '1', WARM_POOL_MAX: '4' });
  try {
    const manager = server.app.sessions as BrowserSessionManager;
    await manager.whenWarm(60_000);
    const n = ITERATIONS * 4;
    const machine0 = machineBusyMs();
    const own0 = process.cpuUsage();
    const cycles = await pacedCycles(server, pageUrl, perSecond, n);
    const own = process.cpuUsage(own0);
    return {
      cycles,
      cpuMsPerCycle: {
        machine: Math.round((machineBusyMs() - machine0) / n),
        bench_process: Math.round((own.user + own.system) / 1000 / n),
      },
      poolAtEnd: manager.poolStats,
    };
  } finally {
    await server.discard();
  }
}

/** Playwright's own cold start: chromium.launch until a page exists. */
async function rawLaunches(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const b = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    await b.newPage();
    out.push(performance.now() - t);
    await b.close();
  }
  return out;
}

async function cycles(server: TestServer, pageUrl: string): Promise<{ ours: number[]; raw: number[] }> {
  const manager = server.app.sessions as BrowserSessionManager;
  const ours: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    await manager.whenWarm(60_000);
    ours.push(await cycleOnce(server, pageUrl));

    const t = performance.now();
    const plain = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    const p = await plain.newPage();
    await p.goto(pageUrl);
    await plain.close();
    raw.push(performance.now() - t);
  }
  return { ours, raw };
}

function rssKb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

async function concurrency(
  server: TestServer,
): Promise<{ live: number; pss_mb_per_session: number | null; rss_mb_per_session: number | null; stopped_by: string }> {
  const ids: string[] = [];
  const urls: string[] = [];
  let stoppedBy = 'bound';
  try {
    while (ids.length < MAX_CONCURRENT) {
      try {
        const s = await create(server);
        ids.push(s.session_id);
        urls.push(s.connect_url);
        await getVersion(s.connect_url);
      } catch (e) {
        stoppedBy = (e as Error).message.slice(0, 120);
        break;
      }
    }
    // Every one still answers, all at once.
    const answers = await Promise.allSettled(urls.map((u) => getVersion(u)));
    const answering = answers.filter((a) => a.status === 'fulfilled').length;
    const procs = serviceProcesses(server.dataDir);
    const pss = procs.reduce((n, p) => n + pssKb(p.pid), 0);
    const rss = procs.reduce((n, p) => n + rssKb(p.pid), 0);
    const live = Math.min(answering, (server.app.sessions as BrowserSessionManager).active);
    return {
      live,
      pss_mb_per_session: live ? Math.round(pss / 1024 / live) : null,
      rss_mb_per_session: live ? Math.round(rss / 1024 / live) : null,
      stopped_by: stoppedBy,
    };
  } finally {
    await Promise.all(ids.map((id) => end(server, id)));
  }
}

async function main(): Promise<void> {
  const site = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>bench</title><h1>bench</h1>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const load = os.loadavg()[0];

  const warmServer = await startServer({ WARM_POOL_SIZE: '1' });
  let warm: number[], cycle: { ours: number[]; raw: number[] };
  try {
    warm = await createToCdp(warmServer, true);
    cycle = await cycles(warmServer, pageUrl);
  } finally {
    await warmServer.discard();
  }

  // The default pool settings (WARM_POOL_SIZE 1, WARM_POOL_MAX 4), a fresh server each, 2 and then 1 create a second.
  const paced = await pacedRun(pageUrl, 2);
  const pacedSlow = await pacedRun(pageUrl, 1);
  const rawLaunch = await rawLaunches(ITERATIONS);

  const coldServer = await startServer({ WARM_POOL_SIZE: '0', MAX_SESSIONS: String(MAX_CONCURRENT) });
  let cold: number[], conc: Awaited<ReturnType<typeof concurrency>>;
  try {
    cold = await createToCdp(coldServer, false);
    conc = await concurrency(coldServer);
  } finally {
    await coldServer.discard();
  }
  await new Promise((r) => site.close(r));

  const oursP50 = quantile(cycle.ours, 0.5);
  const rawP50 = quantile(cycle.raw, 0.5);
  const ratio = (a: number | null, b: number | null) => (a && b ? Number((a / b).toFixed(2)) : null);
  console.log(
    JSON.stringify({
      bench: 'sessions',
      create_to_getversion_warm_ms: stats(warm),
      create_to_getversion_cold_ms: stats(cold),
      cycle_ms: stats(cycle.ours),
      raw_playwright_cycle_ms: stats(cycle.raw),
      cycle_vs_raw: ratio(oursP50, rawP50),
      paced_2_per_s_cycle_ms: stats(paced.cycles),
      paced_cycle_p50_vs_raw: ratio(quantile(paced.cycles, 0.5), rawP50),
      paced_cycle_p95_vs_raw: ratio(quantile(paced.cycles, 0.95), quantile(cycle.raw, 0.95)),
      target_paced_cycle_p95_vs_raw: 0.5,
      pool_at_end: paced.poolAtEnd,
      paced_cpu_ms_per_cycle: paced.cpuMsPerCycle,
      // What this host sustains: every cycle starts a browser, so past cores / CPU per cycle they queue.
      cycles_per_s_this_host_sustains: Number(((os.cpus().length * 1000) / paced.cpuMsPerCycle.machine).toFixed(2)),
      paced_1_per_s_cycle_ms: stats(pacedSlow.cycles),
      paced_1_per_s_cycle_p95_vs_raw: ratio(quantile(pacedSlow.cycles, 0.95), quantile(cycle.raw, 0.95)),
      paced_1_per_s_cpu_ms_per_cycle: pacedSlow.cpuMsPerCycle,
      raw_launch_ms: stats(rawLaunch),
      cold_create_vs_raw_launch: ratio(quantile(cold, 0.5), quantile(rawLaunch, 0.5)),
      target_cold_create_vs_raw_launch: 1.5,
      concurrent_live: conc.live,
      concurrent_bound: MAX_CONCURRENT,
      concurrent_stopped_by: conc.stopped_by,
      pss_mb_per_session: conc.pss_mb_per_session,
      rss_mb_per_session: conc.rss_mb_per_session,
      cpus: os.cpus().length,
      load_avg_1m_at_start: Number(load?.toFixed(2)),
      load_avg_1m_at_end: Number(os.loadavg()[0]?.toFixed(2)),
    }),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
