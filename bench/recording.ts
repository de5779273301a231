/**
 * Screen-recording cost (issue 11), ONE JSON line. The same few live sessions are measured on a
 * server that records them (RECORD_SESSIONS=all) and, as the baseline in the same run, on one that
 * does not (off), each on a still page and then on a page that moves all the time:
 * - CPU share of one core per session (utime+stime of every process the service started, from /proc),
 *   the recorder's own share apart (ffmpeg, plus what its grabs cost Xvfb shows in the difference);
 * - MB per minute of recording per session;
 * - memory per session (PSS, so shared pages are not counted twice), with and without ffmpeg;
 * - how long ending a session takes (DELETE), ffmpeg finishing its file included;
 * - an ESTIMATE (extrapolated from those per-session figures, not 20 sessions started) of how many
 *   live sessions a 2-core / 24 GiB host holds, by the rule in the README: half the memory and half
 *   the CPU stay free for everything else (page loads, runs, the live view), sessions sitting on a
 *   still page.
 *
 *   npx tsx bench/recording.ts [sessions] [seconds per window]
 */
import fs from 'node:fs';
import os from 'node:os';
import { RECORDING, recordingFileOf } from '../server/artifacts/recorder.ts';
import { pssKb, serviceProcesses } from '../test/helpers/processes.ts';
import { startServer, type TestServer } from '../test/helpers/server.ts';
import { CdpPage, openViewSession, type ViewSession } from '../test/helpers/viewSession.ts';

const SESSIONS = Number(process.argv[2] ?? 3);
const SECONDS = Number(process.argv[3] ?? 20);
const SETTLE_MS = 3000;
const HOST = { cores: 2, memoryGiB: 24 };
/** Half the memory and half the CPU stay free for everything else (the memory half is MAX_SESSIONS's own rule). */
const SHARE_FOR_SESSIONS = 0.5;

const STILL = `data:text/html,<!doctype html><title>still</title><body style="font:18px sans-serif;margin:40px"><h1>A form</h1>
<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</p>
<label>Name <input value="Ada"></label> <button>Send</button>`;
/** Motion everywhere, all the time: the dearest page to encode. */
const MOVING = `data:text/html,<!doctype html><title>moving</title><body style="margin:0;overflow:hidden"><canvas id=c></canvas><script>
const c=document.getElementById('c');c.width=innerWidth;c.height=innerHeight;const g=c.getContext('2d');
(function f(){const t=Date.now();g.fillStyle='hsl('+(t/20%25360)+',60%25,50%25)';g.fillRect(0,0,c.width,c.height);
g.fillStyle='%23fff';g.font='48px sans-serif';g.fillText(String(t),40,120);
g.fillRect((t/4)%25c.width,200,160,160);requestAnimationFrame(f)})()</script>`;

const TICK = 100; // USER_HZ on Linux
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

function cpuTicks(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(f[11]) + Number(f[12]); // utime, stime
  } catch {
    return 0;
  }
}

interface Window {
  /** % of one core per session: every process, and ffmpeg alone. */
  cpu_pct_per_session: number;
  ffmpeg_cpu_pct_per_session: number;
  xvfb_cpu_pct_per_session: number;
  mb_per_min_per_session: number | null;
}

/** CPU over one window with every session on `page`; processes that came or went meanwhile count for what they were seen doing. */
async function measure(server: TestServer, sessions: ViewSession[], pages: CdpPage[], page: string): Promise<Window> {
  for (const p of pages) await p.call('Page.navigate', { url: page });
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const before = new Map(
    serviceProcesses(server.dataDir).map((p) => [p.pid, { name: p.name, ticks: cpuTicks(p.pid) }]),
  );
  const size = (id: string) =>
    fs.statSync(recordingFileOf(server.dataDir, id), { throwIfNoEntry: false })?.size ?? null;
  const sizesBefore = sessions.map((s) => size(s.id));
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const seconds = (performance.now() - t0) / 1000;
  let all = 0;
  let ffmpeg = 0;
  let xvfb = 0;
  for (const p of serviceProcesses(server.dataDir)) {
    const delta = cpuTicks(p.pid) - (before.get(p.pid)?.ticks ?? 0);
    all += delta;
    if (p.name === 'ffmpeg') ffmpeg += delta;
    if (p.name === 'Xvfb') xvfb += delta;
  }
  const pct = (ticks: number) => round((ticks / TICK / seconds / sessions.length) * 100);
  const grown = sessions.map((s, i) => (sizesBefore[i] === null ? null : size(s.id)! - sizesBefore[i]!));
  const recorded = grown.filter((g): g is number => g !== null);
  return {
    cpu_pct_per_session: pct(all),
    ffmpeg_cpu_pct_per_session: pct(ffmpeg),
    xvfb_cpu_pct_per_session: pct(xvfb),
    mb_per_min_per_session: recorded.length
      ? round(recorded.reduce((a, b) => a + b, 0) / recorded.length / 1024 / 1024 / (seconds / 60), 2)
      : null,
  };
}

async function run(mode: 'all' | 'off') {
  const server = await startServer({ RECORD_SESSIONS: mode, WARM_POOL_SIZE: '0' });
  const sessions: ViewSession[] = [];
  const pages: CdpPage[] = [];
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const s = await openViewSession(server);
      sessions.push(s);
      pages.push(await CdpPage.attach(s.connectUrl));
    }
    const still = await measure(server, sessions, pages, STILL);
    const procs = serviceProcesses(server.dataDir);
    const pss = (names?: string[]) =>
      procs.filter((p) => !names || names.includes(p.name)).reduce((n, p) => n + pssKb(p.pid), 0) /
      1024 /
      sessions.length;
    const memory = { pss_mb_per_session: Math.round(pss()), ffmpeg_pss_mb_per_session: Math.round(pss(['ffmpeg'])) };
    const moving = await measure(server, sessions, pages, MOVING);
    // DELETE one at a time: with recording, ffmpeg writes its last fragment before the browser goes.
    const endMs: number[] = [];
    for (const s of sessions.splice(0)) {
      const t = performance.now();
      await s.end();
      endMs.push(performance.now() - t);
    }
    return {
      still,
      moving,
      ...memory,
      end_ms_median: Math.round(endMs.sort((a, b) => a - b)[Math.floor(endMs.length / 2)]!),
    };
  } finally {
    for (const p of pages) p.close();
    await Promise.all(sessions.map((s) => s.end()));
    await server.discard();
  }
}

/** Sessions a host holds: the tighter of half its memory and half its CPU, sessions on a still page. */
function holds(
  pssMb: number,
  cpuPct: number,
): { sessions: number; bound_by: 'memory' | 'cpu'; by_memory: number; by_cpu: number } {
  const byMemory = Math.floor((HOST.memoryGiB * 1024 * SHARE_FOR_SESSIONS) / pssMb);
  const byCpu = Math.floor((HOST.cores * 100 * SHARE_FOR_SESSIONS) / Math.max(cpuPct, 0.1));
  return {
    sessions: Math.min(byMemory, byCpu),
    bound_by: byCpu < byMemory ? 'cpu' : 'memory',
    by_memory: byMemory,
    by_cpu: byCpu,
  };
}

async function main(): Promise<void> {
  const load = os.loadavg()[0];
  const off = await run('off');
  const on = await run('all');
  const heldOn = holds(on.pss_mb_per_session, on.still.cpu_pct_per_session);
  const heldOff = holds(off.pss_mb_per_session, off.still.cpu_pct_per_session);
  console.log(
    JSON.stringify({
      bench: 'recording',
      settings: { ...RECORDING, size: '1280x720', codec: 'h264' },
      sessions: SESSIONS,
      seconds_per_window: SECONDS,
      recording_on: on,
      recording_off_baseline: off,
      recording_cpu_pct_of_a_core: {
        still: round(on.still.cpu_pct_per_session - off.still.cpu_pct_per_session),
        moving: round(on.moving.cpu_pct_per_session - off.moving.cpu_pct_per_session),
      },
      recording_mb_per_min: { still: on.still.mb_per_min_per_session, moving: on.moving.mb_per_min_per_session },
      recording_pss_mb: on.pss_mb_per_session - off.pss_mb_per_session,
      estimate_2_cores_24_gib: {
        note: 'extrapolated from the per-session figures above; half the memory and half the CPU kept free; sessions on a still page',
        recording_on: heldOn,
        recording_off: heldOff,
        all_cpu_for_sessions_recording_on: Math.floor((HOST.cores * 100) / Math.max(on.still.cpu_pct_per_session, 0.1)),
      },
      default: heldOn.sessions >= 20 ? 'all' : 'runs',
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
