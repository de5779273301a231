/**
 * CPU a cold browser start costs (issue 13: under a steady 2 creates per second on 2 cores the warm
 * pool cannot refill faster than the machine starts trees, so the cycle's p95 is set by what one
 * start costs). ONE JSON line: CPU milliseconds (user + system, every process of the tree, read
 * from /proc once the create has answered, and again 2 s later, "settled": a browser keeps working
 * after it answers, and that work competes with the next start just the same), in total and by
 * process kind, against Playwright's own chromium.launch + newPage in the same run, measured the
 * same way.
 *
 *   npx tsx bench/startCpu.ts [iterations]
 */
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { postJson, startServer } from '../test/helpers/server.ts';
import { serviceProcesses } from '../test/helpers/processes.ts';
import { processCpuMs } from './lib/measure.ts';

const ITERATIONS = Number(process.argv[2] ?? 8);
const SETTLE_MS = 2000;
const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));

const cpuMs = (pid: number) => processCpuMs(pid);

/** A Chromium process's kind from its flags: browser, zygote, renderer, gpu-process, utility:network, … */
function kindOf(name: string, cmdline: string): string {
  if (name !== 'chromium') return name;
  const type = /--type=(\S+)/.exec(cmdline)?.[1] ?? 'browser';
  const sub = /--utility-sub-type=([a-z_]+)/.exec(cmdline)?.[1];
  return sub ? `${type}:${sub}` : cmdline.includes('--top-chrome-webui') ? `${type}:top-chrome` : type;
}

/** Processes whose command line names `marker` (Playwright's temporary profile folder). */
function processesNaming(marker: string): { pid: number; name: string; cmdline: string }[] {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(marker))
        out.push({ pid: Number(entry), name: fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim(), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0);

function tally(procs: { pid: number; name: string; cmdline: string }[], into?: Record<string, number[]>): number {
  const kinds: Record<string, number> = {};
  for (const p of procs) kinds[kindOf(p.name, p.cmdline)] = (kinds[kindOf(p.name, p.cmdline)] ?? 0) + cpuMs(p.pid);
  if (into) for (const [k, v] of Object.entries(kinds)) (into[k] ??= []).push(v);
  return Object.values(kinds).reduce((a, b) => a + b, 0);
}

async function main(): Promise<void> {
  const server = await startServer({ WARM_POOL_SIZE: '0' });
  const ours: number[] = [];
  const oursSettled: number[] = [];
  const oursByKind: Record<string, number[]> = {};
  try {
    for (let i = 0; i < ITERATIONS; i++) {
      const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'bench' });
      if (res.status !== 200) throw new Error(`create answered ${res.status}`);
      const { session_id } = (await res.json()) as { session_id: string };
      ours.push(tally(serviceProcesses(server.dataDir)));
      await settle();
      oursSettled.push(tally(serviceProcesses(server.dataDir), oursByKind));
      await server.api(`/api/sessions/${session_id}`, { method: 'DELETE' });
    }
  } finally {
    await server.discard();
  }

  const raw: number[] = [];
  const rawSettled: number[] = [];
  const rawByKind: Record<string, number[]> = {};
  for (let i = 0; i < ITERATIONS; i++) {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    await browser.newPage();
    raw.push(tally(processesNaming('playwright_chromiumdev_profile-')));
    await settle();
    rawSettled.push(tally(processesNaming('playwright_chromiumdev_profile-'), rawByKind));
    await browser.close();
  }

  const byKind = (m: Record<string, number[]>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, median(v)]));
  console.log(
    JSON.stringify({
      bench: 'startCpu',
      cold_start_cpu_ms: median(ours),
      raw_launch_cpu_ms: median(raw),
      cold_start_vs_raw_launch_cpu: Number((median(ours) / Math.max(1, median(raw))).toFixed(2)),
      cold_start_settled_cpu_ms: median(oursSettled),
      raw_launch_settled_cpu_ms: median(rawSettled),
      cold_start_vs_raw_launch_settled_cpu: Number((median(oursSettled) / Math.max(1, median(rawSettled))).toFixed(2)),
      settled_after_ms: SETTLE_MS,
      cold_start_settled_cpu_by_kind_ms: byKind(oursByKind),
      raw_launch_settled_cpu_by_kind_ms: byKind(rawByKind),
      iterations: ITERATIONS,
    }),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
