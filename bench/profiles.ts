/**
 * Profiles (issue 35): what starting from a 5 MB profile costs, and what saving one costs.
 *
 * In one run, on one server with its default warm pool, n times each, interleaved:
 * - profile: create with a 5 MB profile (read-only) → connectOverCDP → a page ready (goto, domcontentloaded);
 * - warm: the same without a profile, after a pause that lets the pool refill (the pool's best case);
 * - cold: the same without a profile, started cold (a user_agent keeps it out of the pool).
 * The goal: profile ≤ 1.3 × cold.
 * And the save: ending a persisting session that holds the 5 MB profile, against ending the same
 * session read-only; the difference is the save (goal: under 1 s).
 *
 * ONE JSON line.   npx tsx bench/profiles.ts [n=10]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { postJson, startServer, type TestServer } from '../test/helpers/server.ts';
import { stats } from './lib/measure.ts';

const N = Math.max(3, Number(process.argv[2] ?? 10));
const PROFILE_MB = 5;
const POOL_REFILL_MS = 2500;

/** /fill writes PROFILE_MB of random bytes (they do not compress) into IndexedDB; / is a small page. */
async function startSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url !== '/fill') return void res.end('<!doctype html><title>ready</title><p>hello</p>');
    res.end(`<!doctype html><title>pending</title><script>
      const r = indexedDB.open('bench', 1);
      r.onupgradeneeded = () => r.result.createObjectStore('s');
      r.onsuccess = () => {
        const bytes = new Uint8Array(${PROFILE_MB} * 1024 * 1024);
        for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
        const tx = r.result.transaction('s', 'readwrite');
        tx.objectStore('s').put(bytes, 'blob');
        tx.oncomplete = () => { document.title = 'filled'; };
      };
    </script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function create(server: TestServer, body: Record<string, unknown>) {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'bench profiles', ...body });
  if (res.status !== 200) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { session_id: string; connect_url: string };
}

async function end(server: TestServer, id: string): Promise<number> {
  const t = performance.now();
  const res = await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
  if (res.status !== 200) throw new Error(`end answered ${res.status}`);
  return performance.now() - t;
}

/** create → connect → page ready; the session is ended afterwards (not timed). */
async function startToReady(server: TestServer, origin: string, body: Record<string, unknown>): Promise<number> {
  const t = performance.now();
  const s = await create(server, body);
  const browser = await chromium.connectOverCDP(s.connect_url);
  const context = browser.contexts()[0]!;
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${origin}/`, { waitUntil: 'domcontentloaded' });
  const took = performance.now() - t;
  await browser.close();
  await end(server, s.session_id);
  return took;
}

async function main(): Promise<void> {
  const [server, site] = await Promise.all([startServer({ RECORD_SESSIONS: 'off', WARM_POOL_SIZE: '1' }), startSite()]);
  try {
    await postJson(server, '/api/profiles', { name: 'bench' });
    const filler = await create(server, { profile: { name: 'bench', persist: true } });
    const browser = await chromium.connectOverCDP(filler.connect_url);
    const page = browser.contexts()[0]!.pages()[0]!;
    await page.goto(`${site.origin}/fill`);
    await page.waitForFunction(() => document.title === 'filled', undefined, { timeout: 60_000 });
    await browser.close();
    await end(server, filler.session_id);
    const profile = (await (await server.api('/api/profiles/bench')).json()) as { size: number; version: number };

    const times = { profile: [] as number[], warm: [] as number[], cold: [] as number[] };
    const endPersist: number[] = [];
    const endReadOnly: number[] = [];
    for (let i = 0; i < N; i++) {
      await new Promise((r) => setTimeout(r, POOL_REFILL_MS));
      times.warm.push(await startToReady(server, site.origin, {}));
      times.cold.push(await startToReady(server, site.origin, { user_agent: 'Mozilla/5.0 (bench) cold' }));
      times.profile.push(await startToReady(server, site.origin, { profile: { name: 'bench' } }));
      // The same 5 MB session ended read-only, then persisting: the difference is the save.
      for (const persist of [false, true]) {
        const s = await create(server, { profile: { name: 'bench', persist } });
        (persist ? endPersist : endReadOnly).push(await end(server, s.session_id));
      }
    }
    const p50 = (xs: number[]) => stats(xs).p50 ?? 0;
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    const saveMs = Math.round(p50(endPersist) - p50(endReadOnly));
    console.log(
      JSON.stringify({
        bench: 'profiles',
        n: N,
        profile_bytes_stored: profile.size,
        start_to_ready_ms: {
          profile: stats(times.profile.map(Math.round)),
          warm: stats(times.warm.map(Math.round)),
          cold: stats(times.cold.map(Math.round)),
        },
        profile_vs_cold: ratio(p50(times.profile), p50(times.cold)),
        profile_vs_warm: ratio(p50(times.profile), p50(times.warm)),
        end_ms: { read_only: stats(endReadOnly.map(Math.round)), persisting: stats(endPersist.map(Math.round)) },
        save_ms_p50: saveMs,
        goals: { profile_vs_cold_max: 1.3, save_ms_max: 1000 },
        met: { start: ratio(p50(times.profile), p50(times.cold)) <= 1.3, save: saveMs < 1000 },
        versions_written: ((await (await server.api('/api/profiles/bench')).json()) as { version: number }).version,
      }),
    );
  } finally {
    await server.discard();
    await site.close();
  }
}

await main();
