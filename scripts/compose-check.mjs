// npm run compose-check: the shipped deploy/compose.yaml for real, where a Docker engine runs. It
// builds the image, starts Postgres, two nodes and nginx under a project name of its own, and
// through the front door (nginx) only:
//   1. creates a session on each node (a full node's create moves on to the other) and ends them;
//   2. starts runs, recreates node1 while they are in flight (SIGTERM: drain), and checks that
//      every run succeeds: none lost to the recreate;
//   3. starts runs again, SIGKILLs node2, and checks that every run ends (taken over: the ones it
//      held are failed once by the surviving node, the queued ones run there), none left hanging.
// Then it removes everything it made (containers, volumes). Where no Docker engine answers (as on
// the machine it was written on), it says so in one line and exits 0.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
if (spawnSync('docker', ['info'], { stdio: 'ignore' }).status !== 0) {
  console.log('compose-check: skipped, no Docker engine here (`docker info` fails)');
  process.exit(0);
}

const project = `bdcheck${process.pid}`;
const port = 18000 + (process.pid % 1000);
const apiKey = randomBytes(24).toString('hex');
const env = {
  ...process.env,
  BROWSERDESK_SECRET_KEY: randomBytes(32).toString('hex'),
  BROWSERDESK_API_KEY: apiKey,
  PUBLIC_PORT: String(port),
  PUBLIC_URL: `http://localhost:${port}`,
  // One session a node: the second create must move on to the other node.
  MAX_SESSIONS_PER_NODE: '1',
};
const compose = (...args) =>
  execFileSync('docker', ['compose', '-p', project, '-f', 'deploy/compose.yaml', ...args], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
const front = `http://127.0.0.1:${port}`;
const call = async (method, pathname, body) => {
  const res = await fetch(front + pathname, {
    method,
    headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check().catch(() => undefined);
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`compose-check: timed out waiting for ${what}`);
    await sleep(1000);
  }
}
function expect(ok, what) {
  if (!ok) throw new Error(`compose-check: ${what}`);
  console.log(`compose-check: ok, ${what}`);
}

/** Starts `n` runs of `workflowId`; their session ids. */
async function startRuns(workflowId, n) {
  const ids = [];
  for (let i = 0; i < n; i++) {
    const run = await call('POST', '/api/run_workflow', { workflow_id: workflowId });
    if (run.status !== 200) throw new Error(`compose-check: run_workflow answered ${run.status}`);
    ids.push(run.body.session_id);
  }
  return ids;
}
/** Waits until every run has ended; their outcomes. */
async function outcomes(ids, timeoutMs) {
  return until(
    'every run to end',
    async () => {
      const states = await Promise.all(
        ids.map(async (id) => (await call('GET', `/api/run_workflow_status?session_id=${id}`)).body?.status),
      );
      return states.every((s) => s === 'succeeded' || s === 'failed') ? states : undefined;
    },
    timeoutMs,
  );
}

const started = Date.now();
try {
  compose('up', '-d', '--build', '--wait');
  console.log(`compose-check: up in ${Math.round((Date.now() - started) / 1000)} s`);
  await until('the front door', async () => (await fetch(`${front}/api/readyz`)).ok, 120_000);

  // 1. A session on each node, through the front door.
  const a = await call('POST', '/api/create_workflow_session', { workflow_name: 'compose-check' });
  const b = await call('POST', '/api/create_workflow_session', { workflow_name: 'compose-check' });
  expect(a.status === 200 && b.status === 200, 'two sessions created through nginx with MAX_SESSIONS=1 a node');
  for (const s of [a, b]) await call('DELETE', `/api/sessions/${s.body.session_id}`);

  // A flow of about ten seconds: the page adds its element late.
  const page = `data:text/html,<script>setTimeout(()=>document.body.innerHTML='<p id=late>ok</p>',8000)</script>`;
  const created = await call('POST', '/api/workflows', {
    name: 'compose-check',
    flow: {
      title: 'compose-check',
      steps: [
        { type: 'navigate', url: page },
        { type: 'waitForElement', selectors: [['#late']], timeout: 60_000 },
      ],
    },
  });
  const workflowId = created.body.id;

  // 2. Recreate node1 with runs in flight: it drains, none is lost.
  const drained = await startRuns(workflowId, 4);
  await sleep(2000);
  compose('up', '-d', '--no-deps', '--force-recreate', 'node1');
  const afterDrain = await outcomes(drained, 600_000);
  expect(
    afterDrain.every((s) => s === 'succeeded'),
    `recreating node1 with runs in flight lost none (${afterDrain.join(', ')})`,
  );

  // 3. SIGKILL node2 with runs in flight: every run ends (taken over), none hangs.
  const killed = await startRuns(workflowId, 4);
  await sleep(2000);
  compose('kill', '-s', 'SIGKILL', 'node2');
  const afterKill = await outcomes(killed, 300_000);
  expect(afterKill.length === killed.length, `after node2's SIGKILL every run ended (${afterKill.join(', ')})`);
  console.log(`compose-check: passed in ${Math.round((Date.now() - started) / 1000)} s`);
} finally {
  compose('down', '-v', '--remove-orphans');
}
