/**
 * Livestream smoothness: frames per second and frame delay while the session's page animates.
 * Prints ONE JSON line. Targets (issue 3): at least 25 fps, delay under 100 ms.
 *
 * The page repaints its whole viewport every animation frame. Delay is the time from Chromium
 * capturing a frame (the screencast's own timestamp, wall clock on this machine) to the viewer's
 * WebSocket receiving it through the server, so it covers encoding, the CDP hop and our relay.
 *
 *   npx tsx bench/livestream.ts [seconds]
 */
import { WebSocket } from 'ws';
import { startServer } from '../test/helpers/server.ts';
import { CdpPage, ensureViewerBuilt, openViewSession } from '../test/helpers/viewSession.ts';

const SECONDS = Number(process.argv[2] ?? 5);
const WARMUP_MS = 500;

const ANIMATION = `data:text/html,<body style="margin:0;overflow:hidden"><canvas id=c></canvas><script>
const c=document.getElementById('c');c.width=innerWidth;c.height=innerHeight;const g=c.getContext('2d');
(function f(){const t=Date.now();g.fillStyle='hsl('+(t/5%25360)+',70%25,50%25)';g.fillRect(0,0,c.width,c.height);
g.fillStyle='%23fff';g.font='64px sans-serif';g.fillText(String(t),40,120);
g.fillRect((t/2)%25c.width,200,120,120);requestAnimationFrame(f)})()</script>`;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

async function main() {
  ensureViewerBuilt();
  const server = await startServer();
  let cdp: CdpPage | undefined;
  try {
    const session = await openViewSession(server);
    cdp = await CdpPage.attach(session.connectUrl);
    await cdp.call('Page.navigate', { url: ANIMATION });
    await new Promise((r) => setTimeout(r, 300));

    const ws = new WebSocket(session.liveUrl.replace(/^http/, 'ws'));
    const delays: number[] = [];
    let frames = 0;
    let bytes = 0;
    let measuring = false;
    let started = 0;
    ws.on('message', (data: Buffer) => {
      if (!measuring) return;
      frames++;
      bytes += data.length;
      delays.push(Date.now() - data.readDoubleBE(0));
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    measuring = true;
    started = performance.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    measuring = false;
    const elapsed = (performance.now() - started) / 1000;
    ws.close();

    delays.sort((a, b) => a - b);
    const result = {
      bench: 'livestream',
      seconds: round(elapsed, 2),
      frames,
      fps: round(frames / elapsed),
      delay_ms_p50: round(percentile(delays, 50)),
      delay_ms_p95: round(percentile(delays, 95)),
      delay_ms_max: delays.length ? round(delays.at(-1)!) : null,
      kb_per_frame: frames ? round(bytes / frames / 1024) : null,
      targets: { fps: 25, delay_ms: 100 },
      meets_targets: frames / elapsed >= 25 && percentile(delays, 50) < 100,
    };
    console.log(JSON.stringify(result));
  } finally {
    cdp?.close();
    await server.discard();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
