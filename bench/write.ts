/**
 * The server's own overhead per POST /api/write: the same N calls, sequential, once straight to
 * the fake model and once through the server (which calls that fake), interleaved in one run so
 * both see the same machine load. Prints one JSON line. Run: npx tsx bench/write.ts [N]
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startFakeModel } from '../test/helpers/fakeModel.ts';
import { postJson, startServer } from '../test/helpers/server.ts';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 500);
const WARMUP = 50;
const TARGET_OVERHEAD_P50_MS = 2;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (ms: number) => Math.round(ms * 1000) / 1000;

async function time(call: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const res = await call();
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`unexpected status ${res.status}`);
  return ms;
}

const fake = await startFakeModel();
const server = await startServer(fake.env('openai-compatible', { WRITER_MAX_RETRIES: '0' }));
try {
  const prompt = 'Write two sentences about a lighthouse keeper.';
  // What the SDK sends, so the direct call does the same work at the fake.
  const direct = () =>
    fetch(`${fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fake-writer-key' },
      body: JSON.stringify({ model: 'fake-model', max_tokens: 4096, messages: [{ role: 'system', content: 'You are a writer.' }, { role: 'user', content: prompt }] }),
    });
  const viaServer = () => postJson(server, '/api/write', { prompt });

  for (let i = 0; i < WARMUP; i++) {
    await time(direct);
    await time(viaServer);
  }
  const d: number[] = [];
  const s: number[] = [];
  for (let i = 0; i < N; i++) {
    d.push(await time(direct));
    s.push(await time(viaServer));
  }
  d.sort((a, b) => a - b);
  s.sort((a, b) => a - b);
  const [dp50, dp99, sp50, sp99] = [percentile(d, 50), percentile(d, 99), percentile(s, 50), percentile(s, 99)];
  console.log(
    JSON.stringify({
      bench: 'write',
      n: N,
      direct_p50_ms: round(dp50),
      direct_p99_ms: round(dp99),
      server_p50_ms: round(sp50),
      server_p99_ms: round(sp99),
      overhead_p50_ms: round(sp50 - dp50),
      overhead_p99_ms: round(sp99 - dp99),
      ratio_p50: round(sp50 / dp50),
      ratio_p99: round(sp99 / dp99),
      target_overhead_p50_ms: TARGET_OVERHEAD_P50_MS,
      met: sp50 - dp50 < TARGET_OVERHEAD_P50_MS,
    }),
  );
} finally {
  await server.close();
  await fake.close();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}
