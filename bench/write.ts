/**
 * The server's own overhead per POST /api/write: the same N calls, sequential, once straight to
 * the fake model and once through the server (which calls that fake), interleaved in one run so
 * both see the same machine load. Client, server and fake share this process, so the CPU time
 * of a call (process.cpuUsage) is all of its work; it is reported beside wall time because on a
 * busy machine wall time also counts waits for a core at every hop, and the server path has two
 * more hops than the direct one. Prints one JSON line. Run: npx tsx bench/write.ts [N]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startFakeModel } from '../test/helpers/fakeModel.ts';
import { postJson, startServer } from '../test/helpers/server.ts';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 500);
const WARMUP = 50;
const TARGET_OVERHEAD_P50_MS = 2;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (x: number) => Math.round(x * 1000) / 1000;

/** Wall and CPU milliseconds of one call. */
async function time(call: () => Promise<Response>): Promise<[number, number]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const res = await call();
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (!res.ok) throw new Error(`unexpected status ${res.status}`);
  return [ms, (c.user + c.system) / 1000];
}

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

const fake = await startFakeModel();
const server = await startServer(fake.env('openai-compatible', { MODEL_MAX_RETRIES: '0' }));
try {
  const prompt = 'Write two sentences about a lighthouse keeper.';
  // What the SDK sends, so the direct call does the same work at the fake.
  const direct = () =>
    fetch(`${fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fake-writer-key' },
      body: JSON.stringify({
        model: 'fake-model',
        max_tokens: 4096,
        messages: [
          { role: 'system', content: 'You are a writer.' },
          { role: 'user', content: prompt },
        ],
      }),
    });
  const viaServer = () => postJson(server, '/api/write', { prompt });

  for (let i = 0; i < WARMUP; i++) {
    await time(direct);
    await time(viaServer);
  }
  const d: [number, number][] = [];
  const s: [number, number][] = [];
  for (let i = 0; i < N; i++) {
    d.push(await time(direct));
    s.push(await time(viaServer));
  }
  const [dw, sw, dc, sc] = [
    stats(d.map((x) => x[0])),
    stats(s.map((x) => x[0])),
    stats(d.map((x) => x[1])),
    stats(s.map((x) => x[1])),
  ];
  console.log(
    JSON.stringify({
      bench: 'write',
      n: N,
      direct_p50_ms: round(dw.p50),
      direct_p99_ms: round(dw.p99),
      server_p50_ms: round(sw.p50),
      server_p99_ms: round(sw.p99),
      overhead_p50_ms: round(sw.p50 - dw.p50),
      overhead_p99_ms: round(sw.p99 - dw.p99),
      ratio_p50: round(sw.p50 / dw.p50),
      ratio_p99: round(sw.p99 / dw.p99),
      cpu_direct_p50_ms: round(dc.p50),
      cpu_server_p50_ms: round(sc.p50),
      cpu_overhead_p50_ms: round(sc.p50 - dc.p50),
      target_overhead_p50_ms: TARGET_OVERHEAD_P50_MS,
      met: sw.p50 - dw.p50 < TARGET_OVERHEAD_P50_MS,
      load_avg_1m: round(os.loadavg()[0]!),
      cores: os.cpus().length,
    }),
  );
} finally {
  await server.discard();
  await fake.close();
}
