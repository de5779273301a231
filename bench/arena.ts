/**
 * The field's own benchmark, "hello-browser" (issue 33), run the field's way: a session's lifecycle
 * is create → chromium.connectOverCDP(url) → page.goto(url, {waitUntil: 'domcontentloaded'}) →
 * release; 10 warm-ups, then n lifecycles one at a time (c1) and n in rounds of ten at once (c10).
 * Both kinds of session are measured: a browser of its own (the default) and a context in a browser
 * the key shares (isolation: 'context').
 * The baseline, in the same run and on the same page: raw Chromium launched headless per session by
 * this client (create = the browser up with its DevTools URL, connect, goto, release = closed and
 * exited). Browserdesk runs with its default settings (warm pool and all).
 *
 * Also, in the same run: a cold create (no pool) against Playwright's chromium.launch + first page,
 * alternating; and a cold start's phases (wall and CPU of each), so it says where a start's time goes.
 *
 * ONE JSON line: every stage's p50/p95 for both, the ratios the issue sets goals for, sessions
 * sustained per second in c10, and the phase trace.
 *
 *   npx tsx bench/arena.ts [n=40]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { EnvSchema } from '../server/config.ts';
import type { BrowserSessionManager } from '../server/sessions/sessionManager.ts';
import { BrowserTree, type TreeOptions } from '../server/sessions/browser/tree.ts';
import { CHROMIUM_ARGS } from '../test/fixtures/chromiumArgs.ts';
import { serviceProcesses } from '../test/helpers/processes.ts';
import { postJson, startServer, type TestServer } from '../test/helpers/server.ts';
import { machineBusyMs, processCpuMs, quantile } from './lib/measure.ts';

const N = Math.max(10, Number(process.argv[2] ?? 40));
const WARMUPS = 10;
const AT_ONCE = 10;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Stages {
  create: number;
  connect: number;
  goto: number;
  release: number;
  lifecycle: number;
}
/** One way of getting a browser: create hands back a CDP URL and a release. */
interface Provider {
  create(): Promise<{ cdpUrl: string; release(): Promise<void> }>;
}

const summary = (runs: Stages[]) =>
  Object.fromEntries(
    (['create', 'connect', 'goto', 'release', 'lifecycle'] as const).map((k) => {
      const xs = runs.map((r) => r[k]);
      return [k, { p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), max: Math.round(Math.max(...xs)) }];
    }),
  );
const ratio = (a: number | null, b: number | null) => (a !== null && b ? Math.round((a / b) * 100) / 100 : null);

async function lifecycle(provider: Provider, pageUrl: string): Promise<Stages> {
  const t0 = performance.now();
  const session = await provider.create();
  const t1 = performance.now();
  const browser = await chromium.connectOverCDP(session.cdpUrl);
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = context.pages()[0] ?? (await context.newPage());
  const t2 = performance.now();
  await page.goto(pageUrl, { waitUntil: 'domcontentloaded' });
  const t3 = performance.now();
  await browser.close();
  await session.release();
  const t4 = performance.now();
  return { create: t1 - t0, connect: t2 - t1, goto: t3 - t2, release: t4 - t3, lifecycle: t4 - t0 };
}

/** c1: one after another, no pause. c10: rounds of AT_ONCE started together. */
async function measure(
  provider: Provider,
  pageUrl: string,
  atOnce: number,
): Promise<{ runs: Stages[]; perSecond: number; cpuMsPerLifecycle: number }> {
  for (let i = 0; i < WARMUPS; i += atOnce)
    await Promise.all(Array.from({ length: Math.min(atOnce, WARMUPS - i) }, () => lifecycle(provider, pageUrl)));
  const runs: Stages[] = [];
  const t = performance.now();
  const busy = machineBusyMs();
  while (runs.length < N)
    runs.push(...(await Promise.all(Array.from({ length: atOnce }, () => lifecycle(provider, pageUrl)))));
  return {
    runs,
    perSecond: Math.round((runs.length / ((performance.now() - t) / 1000)) * 100) / 100,
    // Every process of the machine, this client's included: what one lifecycle costs, all told.
    cpuMsPerLifecycle: Math.round((machineBusyMs() - busy) / runs.length),
  };
}

/** Chromium headless with a DevTools port of its own, as a client launching per session would. */
const rawChromium: Provider = {
  async create() {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-arena-raw-'));
    const child = spawn(
      CHROMIUM,
      [...CHROMIUM_ARGS, '--headless', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
      // Its own process group, so the release ends its helpers with it.
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const cdpUrl = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${err.slice(-300)}`)));
    });
    return {
      cdpUrl,
      async release() {
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
        await fs.promises.rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
      },
    };
  },
};

/** Browserdesk's sessions of one kind: a browser of their own, or a context in a browser the key shares. */
function service(server: TestServer, isolation: 'browser' | 'context'): Provider {
  return {
    async create() {
      const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'arena', isolation });
      if (res.status !== 200) throw new Error(`create answered ${res.status}: ${await res.text()}`);
      const s = (await res.json()) as { session_id: string; connect_url: string };
      return {
        cdpUrl: s.connect_url,
        async release() {
          const r = await server.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });
          if (r.status !== 200) throw new Error(`release answered ${r.status}`);
          await r.arrayBuffer();
        },
      };
    },
  };
}

/** Cold create (no pool: the create answers once the browser is up) against Playwright's launch + first page. */
async function coldCreates(): Promise<{ ours: number[]; raw: number[] }> {
  const server = await startServer({ WARM_POOL_SIZE: '0' });
  const ours: number[] = [];
  const raw: number[] = [];
  try {
    const provider = service(server, 'browser');
    for (let i = 0; i < Math.ceil(N / 4) + 2; i++) {
      let t = performance.now();
      const s = await provider.create();
      if (i >= 2) ours.push(performance.now() - t);
      await s.release();
      t = performance.now();
      const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      await b.newPage();
      if (i >= 2) raw.push(performance.now() - t);
      await b.close();
    }
  } finally {
    await server.discard();
  }
  return { ours, raw };
}

/** Every process of a tree (test/helpers/processes.ts finds them by their marker), summed CPU by kind. */
function treeCpu(dataDir: string, treeId: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of serviceProcesses(dataDir))
    if (p.tree === treeId) out[p.name] = (out[p.name] ?? 0) + processCpuMs(p.pid, true);
  return out;
}

/** Cold starts' phases, each the median over the starts, with the CPU each process kind spent by ready. */
async function phaseTrace(): Promise<{
  wall_ms: Record<string, number>;
  cpu_ms_at_ready: Record<string, number>;
  service_cpu_ms: number;
}> {
  const server = await startServer({ WARM_POOL_SIZE: '0' });
  const manager = server.app.sessions as BrowserSessionManager;
  const treeOptions = (id: string) => (manager as unknown as { treeOptions(id: string): TreeOptions }).treeOptions(id);
  const walls: Record<string, number[]> = {};
  const cpus: Record<string, number[]> = {};
  const own: number[] = [];
  try {
    for (let i = 0; i < 10; i++) {
      const id = crypto.randomUUID();
      const c0 = process.cpuUsage();
      const tree = await BrowserTree.start(treeOptions(id));
      const c = process.cpuUsage(c0);
      if (i >= 2) {
        for (const [phase, ms] of Object.entries(tree.startTrace)) (walls[phase] ??= []).push(ms);
        for (const [kind, ms] of Object.entries(treeCpu(server.dataDir, id))) (cpus[kind] ??= []).push(ms);
        own.push((c.user + c.system) / 1000);
      }
      await tree.kill();
    }
  } finally {
    await server.discard();
  }
  const med = (xs: number[]) => quantile(xs, 0.5)!;
  return {
    wall_ms: Object.fromEntries(Object.entries(walls).map(([k, v]) => [k, med(v)])),
    cpu_ms_at_ready: Object.fromEntries(Object.entries(cpus).map(([k, v]) => [k, med(v)])),
    service_cpu_ms: med(own),
  };
}

async function main(): Promise<void> {
  const site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>hello</title><h1>Hello, browser</h1>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const defaults = EnvSchema.parse({});
  try {
    const trace = await phaseTrace();
    const cold = await coldCreates();
    const out: Record<string, unknown> = {
      bench: 'arena',
      n: N,
      cores: os.availableParallelism(),
      starts_at_once: Number(process.env.BROWSER_STARTS_AT_ONCE ?? defaults.BROWSER_STARTS_AT_ONCE),
      trace,
    };
    const rawC1 = await measure(rawChromium, pageUrl, 1);
    const rawC10 = await measure(rawChromium, pageUrl, AT_ONCE);
    const server = await startServer({
      WARM_POOL_SIZE: String(defaults.WARM_POOL_SIZE),
      WARM_POOL_MAX: String(defaults.WARM_POOL_MAX),
      // The one setting worth comparing on a host: BROWSER_STARTS_AT_ONCE=1 npx tsx bench/arena.ts.
      BROWSER_STARTS_AT_ONCE: process.env.BROWSER_STARTS_AT_ONCE ?? String(defaults.BROWSER_STARTS_AT_ONCE),
    });
    type Measured = Awaited<ReturnType<typeof measure>>;
    let ours: { c1: Measured; c10: Measured };
    let contexts: { c1: Measured; c10: Measured };
    try {
      const manager = server.app.sessions as BrowserSessionManager;
      await manager.whenWarm(60_000);
      ours = {
        c1: await measure(service(server, 'browser'), pageUrl, 1),
        c10: await measure(service(server, 'browser'), pageUrl, AT_ONCE),
      };
      await manager.whenWarm(60_000);
      contexts = {
        c1: await measure(service(server, 'context'), pageUrl, 1),
        c10: await measure(service(server, 'context'), pageUrl, AT_ONCE),
      };
    } finally {
      await server.discard();
    }
    const s = {
      browserdesk_c1: summary(ours.c1.runs),
      context_c1: summary(contexts.c1.runs),
      raw_c1: summary(rawC1.runs),
      browserdesk_c10: summary(ours.c10.runs),
      context_c10: summary(contexts.c10.runs),
      raw_c10: summary(rawC10.runs),
    };
    const coldP50 = quantile(cold.ours, 0.5);
    const rawLaunchP50 = quantile(cold.raw, 0.5);
    Object.assign(out, s, {
      sustained_per_second: {
        browserdesk_c10: ours.c10.perSecond,
        context_c10: contexts.c10.perSecond,
        raw_c10: rawC10.perSecond,
      },
      machine_cpu_ms_per_lifecycle: {
        browserdesk_c1: ours.c1.cpuMsPerLifecycle,
        context_c1: contexts.c1.cpuMsPerLifecycle,
        raw_c1: rawC1.cpuMsPerLifecycle,
        browserdesk_c10: ours.c10.cpuMsPerLifecycle,
        context_c10: contexts.c10.cpuMsPerLifecycle,
        raw_c10: rawC10.cpuMsPerLifecycle,
      },
      cold_create: { browserdesk_p50: coldP50, raw_launch_and_page_p50: rawLaunchP50 },
      goals: {
        c1_lifecycle_p50_ratio: ratio(s.browserdesk_c1.lifecycle!.p50, s.raw_c1.lifecycle!.p50),
        c1_create_p50_ms: s.browserdesk_c1.create!.p50,
        c10_lifecycle_p50_ratio: ratio(s.browserdesk_c10.lifecycle!.p50, s.raw_c10.lifecycle!.p50),
        c10_slowest_create_vs_raw_slowest: ratio(s.browserdesk_c10.create!.max, s.raw_c10.create!.max),
        cold_create_ratio: ratio(coldP50, rawLaunchP50),
        sustained_ratio: ratio(ours.c10.perSecond, rawC10.perSecond),
        context_c1_lifecycle_p50_ratio: ratio(s.context_c1.lifecycle!.p50, s.raw_c1.lifecycle!.p50),
        context_c1_create_p50_ms: s.context_c1.create!.p50,
        context_c10_lifecycle_p50_ratio: ratio(s.context_c10.lifecycle!.p50, s.raw_c10.lifecycle!.p50),
      },
    });
    console.log(JSON.stringify(out));
  } finally {
    site.close();
  }
}

await main();
