/**
 * Scale-out figures (several nodes on one Postgres), ONE JSON line:
 * - creates per second: CLIENTS concurrent clients doing create_workflow_session → DELETE back to
 *   back for SECONDS, all through ONE node's URL; first that node alone, then the same node with two
 *   more joined (placement passes a create on when it is full), MAX_SESSIONS the same on each;
 * - the added latency of a CDP round trip (Browser.getVersion) through a node that does not hold
 *   the session, against the same socket path straight to its owner (issue's target: under 1 ms);
 * - the same for an HTTP call (GET /api/sessions/:id).
 * Every node and Postgres are stopped at the end and each node's data folder is checked for
 * processes left behind.
 *
 *   npx tsx bench/scaleout.ts [seconds per throughput phase] [clients] [round trips]
 *
 * On a shared machine, run it under the lock: flock /tmp/bd-chromium.lock npx tsx bench/scaleout.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { CdpClient } from '../server/sessions/cdp/client.ts';
import { connectCdp } from '../test/helpers/cdpSocket.ts';
import { startChildServer, type ChildServer } from '../test/helpers/childServer.ts';
import { createDatabase, queryOnce, startPostgres, type TestPostgres } from '../test/helpers/postgres.ts';
import { serviceProcesses, waitForNoServiceProcesses } from '../test/helpers/processes.ts';
import { freePort } from '../test/helpers/wait.ts';

const SECONDS = Number(process.argv[2] ?? 25);
const CLIENTS = Number(process.argv[3] ?? 6);
const ROUND_TRIPS = Number(process.argv[4] ?? 500);
const MAX_SESSIONS = 2;
const HTTP_CALLS = 300;
// No warm pool (WARM_POOL_SIZE=0): every create launches its browser, so creates per second is the
// launch work the nodes can do. With a pool, back-to-back creates would mostly measure the pool's
// stock (three nodes hold three times the pre-launched browsers) and its refills compete for the
// same two cores anyway. Recording off, as in test/cluster.test.ts (the default records runs only,
// so these sessions would be unrecorded anyway).
const WARM_POOL_SIZE = '0';

const apiKey = `bench_${randomBytes(16).toString('hex')}`;
const secretKey = randomBytes(32).toString('hex');

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!.toFixed(3)) : null;
};
const stats = (xs: number[]) => ({ p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), n: xs.length });
const diff = (a: number | null, b: number | null) => (a !== null && b !== null ? Number((a - b).toFixed(3)) : null);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const api = (node: ChildServer, pathname: string, init: RequestInit = {}) =>
  fetch(node.url + pathname, {
    ...init,
    headers: { 'x-api-key': apiKey, ...(init.headers as Record<string, string>) },
  });

async function createOn(
  node: ChildServer,
  name: string,
): Promise<{ status: number; session?: { session_id: string; connect_url: string } }> {
  const res = await api(node, '/api/create_workflow_session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflow_name: name }),
  });
  if (res.status !== 200) {
    await res.arrayBuffer();
    return { status: res.status };
  }
  return { status: 200, session: (await res.json()) as { session_id: string; connect_url: string } };
}

async function endOn(node: ChildServer, id: string): Promise<void> {
  const res = await api(node, `/api/sessions/${id}`, { method: 'DELETE' });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`DELETE ${id} answered ${res.status}`);
}

interface Throughput {
  creates: number;
  creates_per_s: number;
  refused_429: number;
  other_errors: number;
  ids: string[];
}

/**
 * CLIENTS loops, each create → end through `node` until the deadline; a create refused (429: no
 * room anywhere) is tried again 50 ms later. Creates count when their 200 came before the deadline.
 */
async function throughput(node: ChildServer, label: string): Promise<Throughput> {
  const deadline = performance.now() + SECONDS * 1000;
  const out: Throughput = { creates: 0, creates_per_s: 0, refused_429: 0, other_errors: 0, ids: [] };
  const client = async (c: number) => {
    for (let i = 0; performance.now() < deadline; i++) {
      const r = await createOn(node, `${label} ${c}.${i}`).catch(
        () => ({ status: 0 }) as { status: number; session?: undefined },
      );
      if (!r.session) {
        if (r.status === 429) out.refused_429++;
        else out.other_errors++;
        await sleep(50);
        continue;
      }
      if (performance.now() < deadline) out.creates++;
      out.ids.push(r.session.session_id);
      await endOn(node, r.session.session_id).catch(() => out.other_errors++);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  out.creates_per_s = Number((out.creates / SECONDS).toFixed(2));
  return out;
}

/** Round trips on two sockets, alternating one command each, so both see the same load. */
async function cdpRoundTrips(
  direct: CdpClient,
  via: CdpClient,
  n: number,
): Promise<{ direct: number[]; via: number[] }> {
  const out = { direct: [] as number[], via: [] as number[] };
  for (let i = 0; i < n; i++) {
    for (const [c, xs] of [
      [direct, out.direct],
      [via, out.via],
    ] as const) {
      const t = performance.now();
      await c.send('Browser.getVersion');
      xs.push(performance.now() - t);
    }
  }
  return out;
}

async function httpRoundTrips(
  owner: ChildServer,
  other: ChildServer,
  id: string,
  n: number,
): Promise<{ direct: number[]; via: number[] }> {
  const out = { direct: [] as number[], via: [] as number[] };
  for (let i = 0; i < n; i++) {
    for (const [node, xs] of [
      [owner, out.direct],
      [other, out.via],
    ] as const) {
      const t = performance.now();
      const res = await api(node, `/api/sessions/${id}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET /api/sessions/${id} on ${node.url} answered ${res.status}`);
      xs.push(performance.now() - t);
    }
  }
  return out;
}

async function main(): Promise<void> {
  const load = os.loadavg()[0];
  const dirs: string[] = [];
  const nodes: ChildServer[] = [];
  let postgres: TestPostgres | undefined;
  let leftover = -1;
  try {
    postgres = await startPostgres();
    const databaseUrl = await createDatabase(postgres.adminUrl);
    const query = <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
      queryOnce<T>(databaseUrl, sql, params);
    const startNode = async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-scaleout-'));
      dirs.push(dataDir);
      const port = await freePort();
      const node = await startChildServer({
        dataDir,
        apiKey,
        port,
        timeoutMs: 60_000,
        env: {
          DATABASE_URL: databaseUrl,
          NODE_URL: `http://127.0.0.1:${port}`,
          BROWSERDESK_SECRET_KEY: secretKey,
          MAX_SESSIONS: String(MAX_SESSIONS),
          WARM_POOL_SIZE,
          RECORD_SESSIONS: 'off',
        },
      });
      nodes.push(node);
      return node;
    };
    /** One create → end straight on `node`: its first browser launch (cold disk cache) is not measured. */
    const warmUp = async (node: ChildServer) => {
      const r = await createOn(node, 'warm-up');
      if (!r.session) throw new Error(`warm-up create on ${node.url} answered ${r.status}`);
      await endOn(node, r.session.session_id);
    };
    const placed = async (ids: string[]) => {
      const rows = await query<{ node_id: string; n: string }>(
        'SELECT node_id, count(*) AS n FROM sessions WHERE id = ANY($1) GROUP BY node_id',
        [ids],
      );
      return rows.map((r) => Number(r.n)).sort((a, b) => b - a);
    };

    // 1. Node A alone (the only node in the store), then A with B and C joined; clients on A only.
    const a = await startNode();
    await warmUp(a);
    const one = await throughput(a, 'one node');
    const b = await startNode();
    const c = await startNode();
    await warmUp(b);
    await warmUp(c);
    await sleep(2_500); // a heartbeat of each, so A places on them by their current load
    const three = await throughput(a, 'three nodes');
    const threePlaced = await placed(three.ids);

    // 2 and 3. One session on B (placed locally: B has room), driven straight and through A.
    const created = await createOn(b, 'latency');
    if (!created.session) throw new Error(`create on B answered ${created.status}`);
    const { session_id: id, connect_url: connectUrl } = created.session;
    const owner = (await query<{ node_id: string }>('SELECT node_id FROM sessions WHERE id = $1', [id]))[0]?.node_id;
    if (owner !== b.url) throw new Error(`the latency session landed on ${owner}, not B (${b.url})`);
    const viaUrl = connectUrl.replace(
      /^(ws|http)(s?):\/\/[^/]+/,
      (_m, scheme: string, s: string) => `${scheme}${s}://${new URL(a.url).host}`,
    );
    const direct = await connectCdp(connectUrl, { perMessageDeflate: false });
    const via = await connectCdp(viaUrl, { perMessageDeflate: false });
    let cdp: { direct: number[]; via: number[] };
    let httpRt: { direct: number[]; via: number[] };
    try {
      await cdpRoundTrips(direct, via, 50); // warm-up
      cdp = await cdpRoundTrips(direct, via, ROUND_TRIPS);
      await httpRoundTrips(b, a, id, 30); // warm-up: keep-alive sockets, A's agent to B
      httpRt = await httpRoundTrips(b, a, id, HTTP_CALLS);
    } finally {
      direct.close();
      via.close();
    }
    await endOn(a, id);

    const cdpDirect = stats(cdp.direct);
    const cdpVia = stats(cdp.via);
    const httpDirect = stats(httpRt.direct);
    const httpVia = stats(httpRt.via);
    const result = {
      bench: 'scaleout',
      cores: os.cpus().length,
      warm_pool_size: Number(WARM_POOL_SIZE),
      recording: 'off',
      max_sessions_per_node: MAX_SESSIONS,
      clients: CLIENTS,
      seconds_per_phase: SECONDS,
      one_node: {
        creates: one.creates,
        creates_per_s: one.creates_per_s,
        refused_429: one.refused_429,
        other_errors: one.other_errors,
      },
      three_nodes_through_one: {
        creates: three.creates,
        creates_per_s: three.creates_per_s,
        refused_429: three.refused_429,
        other_errors: three.other_errors,
        sessions_per_node: threePlaced,
      },
      three_vs_one_creates_per_s: one.creates_per_s
        ? Number((three.creates_per_s / one.creates_per_s).toFixed(2))
        : null,
      cdp_getversion_ms: { direct_to_owner: cdpDirect, through_other_node: cdpVia },
      cdp_added_ms_p50: diff(cdpVia.p50, cdpDirect.p50),
      cdp_added_ms_p95: diff(cdpVia.p95, cdpDirect.p95),
      target_cdp_added_ms: 1,
      http_get_session_ms: { direct_to_owner: httpDirect, through_other_node: httpVia },
      http_added_ms_p50: diff(httpVia.p50, httpDirect.p50),
      http_added_ms_p95: diff(httpVia.p95, httpDirect.p95),
      leftover_processes: 0,
      load_avg_1m_at_start: Number(load?.toFixed(2)),
      load_avg_1m_at_end: Number(os.loadavg()[0]?.toFixed(2)),
    };

    await Promise.all(nodes.map((n) => n.stop()));
    await postgres.stop();
    leftover = 0;
    for (const d of dirs) leftover += (await waitForNoServiceProcesses(d)).length;
    result.leftover_processes = leftover;
    console.log(JSON.stringify(result));
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await postgres?.stop();
    if (leftover < 0) {
      // Failed part-way: say what is left, then take the folders away.
      for (const d of dirs) {
        const left = serviceProcesses(d);
        if (left.length) console.error(`left behind in ${d}: ${left.map((p) => `${p.pid} ${p.name}`).join(', ')}`);
      }
    }
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
