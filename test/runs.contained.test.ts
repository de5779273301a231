import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../contract/sessionEvents.ts';
import { startHostileSite, type HostileSite } from './fixtures/hostileSite.ts';
import { treeGone } from './helpers/processes.ts';
import { createWorkflow, runWorkflow, sessionLog, untilCompleted } from './helpers/runs.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { freePort } from './helpers/wait.ts';
import { engineEntry } from '../server/runs/engine/entry.ts';
import { MAX_DIALOGS_LOGGED } from '../server/runs/engine/dialogs.ts';

/**
 * Issue 23, items 1 and 6: runs that once ended the server (a navigation that fails, a page
 * slower than its step) or never ended (a dialog, an endless script, a crashed renderer), and an
 * engine that dies on purpose. Each run ends, failed or not, with a message naming its step, and
 * the server carries on.
 */
let server: TestServer;
let site: HostileSite;
beforeAll(async () => {
  [server, site] = await Promise.all([startServer(), startHostileSite()]);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
});

type Step = Record<string, unknown>;
const nav = (url: string, extra: Step = {}): Step => ({ type: 'navigate', url, ...extra });
const click = (selector: string, extra: Step = {}): Step => ({
  type: 'click',
  selectors: [[selector]],
  offsetX: 2,
  offsetY: 2,
  ...extra,
});

let made = 0;

/** Run `steps` as a new workflow and wait for its end: its status and the session's log. */
async function run(steps: Step[], timeout?: number) {
  const workflowId = await createWorkflow(server, {
    name: `contained ${++made}`,
    flow: { title: 'contained', ...(timeout ? { timeout } : {}), steps },
  });
  const { status, body } = await runWorkflow(server, { workflow_id: workflowId });
  expect(status).toBe(200);
  const done = await untilCompleted(server, body.session_id);
  const log = await sessionLog(server, body.session_id);
  return { done, log, sessionId: body.session_id };
}

const ofType = <E extends SessionEvent['event']>(log: SessionEvent[], event: E) =>
  log.filter((e): e is Extract<SessionEvent, { event: E }> => e.event === event);

/** An https site on loopback with a certificate it made itself (openssl), which no browser trusts. */
async function startSelfSignedSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-days',
      '1',
      '-keyout',
      `${dir}/key.pem`,
      '-out',
      `${dir}/cert.pem`,
    ],
    { stdio: 'ignore' },
  );
  const server = https.createServer(
    { key: fs.readFileSync(`${dir}/key.pem`), cert: fs.readFileSync(`${dir}/cert.pem`) },
    (_req, res) => res.end('<p>secret</p>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function healthy(): Promise<void> {
  expect((await fetch(`${server.url}/api/healthz`)).status).toBe(200);
}

describe('a run whose navigation fails ends, naming the step and the cause', () => {
  it("the issue's flow: port 1 with an asserted navigation (this ended the server)", async () => {
    const { done, log } = await run([
      nav('http://127.0.0.1:1/', { assertedEvents: [{ type: 'navigation', url: 'http://127.0.0.1:1/', title: 'x' }] }),
    ]);
    expect(done.status).toBe('failed');
    expect(done.message).toBe(
      'Step 1 (navigate http://127.0.0.1:1/): browsers do not connect to that port (it is kept for another protocol) (ERR_UNSAFE_PORT)',
    );
    expect(ofType(log, 'RunError')).toHaveLength(1);
    await healthy();
  });

  it('a refused connection says so', async () => {
    const url = `http://127.0.0.1:${await freePort()}/`;
    const { done } = await run([nav(url, { assertedEvents: [{ type: 'navigation' }] })]);
    expect(done.message).toBe(
      `Step 1 (navigate ${url}): the site refused the connection (nothing answers at that address and port) (ERR_CONNECTION_REFUSED)`,
    );
  });

  it('a name that does not resolve says DNS', async () => {
    const { done } = await run([nav('http://no-such-host.invalid/', { assertedEvents: [{ type: 'navigation' }] })]);
    expect(done.message).toMatch(
      /^Step 1 \(navigate http:\/\/no-such-host\.invalid\/\): the site's name does not resolve \(DNS\)/,
    );
  });

  it('a certificate the browser does not trust says TLS', async () => {
    const tls = await startSelfSignedSite();
    try {
      const { done } = await run([nav(`${tls.origin}/`)]);
      expect(done.message).toMatch(
        new RegExp(
          `^Step 1 \\(navigate ${tls.origin}/\\): TLS error: the site's certificate or encryption was refused \\(ERR_CERT_`,
        ),
      );
    } finally {
      await tls.close();
    }
  });

  it('a page slower than the step says so (this ended the server too)', async () => {
    const { done } = await run([
      nav(`${site.origin}/slow`, { timeout: 1500, assertedEvents: [{ type: 'navigation' }] }),
    ]);
    expect(done.message).toBe(`Step 1 (navigate ${site.origin}/slow): the page did not finish loading within 1.5 s`);
    await healthy();
  });

  it('a click whose asserted navigation never comes fails at its timeout', async () => {
    const { done } = await run([
      nav(`${site.origin}/`),
      click('#go', { timeout: 1500, assertedEvents: [{ type: 'navigation' }] }),
    ]);
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(/^Step 2 \(click #go\): /);
  });
});

describe('a step recorded in a frame the page does not have', () => {
  it("says which frame, not the library's TypeError (found by the fuzzer)", async () => {
    const { done } = await run([nav(`${site.origin}/`), click('#go', { frame: [1] })]);
    expect(done.message).toBe(
      'Step 2 (click #go): the frame this step was recorded in (frame [1]) is not on the page now: the page loaded differently than when it was recorded',
    );
  });
});

describe('a private address refused by the egress policy names the setting', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startServer({ BROWSER_ALLOW_PRIVATE_NETWORKS: '0' });
  });
  afterAll(() => strict?.close());

  it('says BROWSER_ALLOW_PRIVATE_NETWORKS', async () => {
    const workflowId = await createWorkflow(strict, {
      name: `private ${++made}`,
      flow: { title: 'private', steps: [nav(`${site.origin}/`)] },
    });
    const { body } = await runWorkflow(strict, { workflow_id: workflowId });
    const done = await untilCompleted(strict, body.session_id);
    expect(done.message).toMatch(
      new RegExp(
        `^Step 1 \\(navigate ${site.origin}/\\): the address is on a private network, loopback or this host, which sessions may not reach \\(set BROWSER_ALLOW_PRIVATE_NETWORKS=true`,
      ),
    );
  });
});

describe('runs end whatever the page does', () => {
  it('answers an alert during a step, records it, and goes on', async () => {
    const { done, log } = await run([
      nav(`${site.origin}/alert`),
      click('#go'),
      { type: 'waitForElement', selectors: [['#out']], properties: { textContent: 'after alert' } },
    ]);
    expect(done.message).toBe('All 3 steps succeeded');
    expect(ofType(log, 'Dialog')).toEqual([
      expect.objectContaining({ dialog_type: 'alert', message: 'boo', answer: 'accepted' }),
    ]);
  });

  it("answers a popup's alert on load, which opens before any Page object exists for it", async () => {
    const { done, log } = await run([
      nav(`${site.origin}/alert-popup`),
      click('#go'),
      { type: 'waitForElement', selectors: [['#out']], properties: { textContent: 'ready' }, timeout: 5000 },
    ]);
    expect(done.message).toBe('All 3 steps succeeded');
    expect(ofType(log, 'Dialog')).toEqual([
      expect.objectContaining({ dialog_type: 'alert', message: 'hello from load', answer: 'accepted' }),
    ]);
  });

  it('a page opening alerts without end fails its step, saying so, within its timeout', async () => {
    const timeout = 3000;
    const { done, log } = await run([nav(`${site.origin}/alert-loop`), click('#go', { timeout })]);
    expect(done.status).toBe('failed');
    // The same alert is counted, not repeated: the message stays one readable line (a loaded host
    // may fail the step, as a page that stopped answering, before the second alert opens). Failed
    // as a wait for its element that ran out, it ends with where to look (stepFailure.ts).
    expect(done.message).toMatch(
      /^Step 2 \(click #go\): .*\(meanwhile the page opened an alert: 'again' \(accepted\)(?: \d+ times)?\)(?:\. Check the selector in the workflow editor\.)?$/,
    );
    const clicked = done.results[1]!;
    console.log(`alert loop: the click failed after ${clicked.duration} ms (timeout ${timeout} ms)`);
    // A hang guard only (the issue's were 37-68 s): the target, timeout + 2 s, is what the printed
    // time is read against; a host under the whole suite's load took 11.8 s once, so the guard is wide.
    expect(clicked.duration).toBeLessThan(timeout + 27_000);
    // Every one answered, at most MAX_DIALOGS_LOGGED told: a loop does not fill the session's log.
    const told = ofType(log, 'Dialog');
    expect(told.length).toBeGreaterThan(1);
    expect(told.length).toBeLessThanOrEqual(MAX_DIALOGS_LOGGED);
  });

  it('accepts confirm and prompt (with its default)', async () => {
    const { done } = await run([
      nav(`${site.origin}/confirm`),
      click('#go'),
      { type: 'customStep', name: 'extract', parameters: { selectors: [['#out']], as: 'confirmed' } },
      nav(`${site.origin}/prompt`),
      click('#go'),
      { type: 'customStep', name: 'extract', parameters: { selectors: [['#out']], as: 'prompted' } },
    ]);
    expect(done.outputs).toEqual({ confirmed: 'yes', prompted: 'Ada' });
  });

  it('a script that never ends fails its step with a message instead of holding the run', async () => {
    // Long enough for a busy host to find and click #go (2 s was not, once: "no element matched");
    // the click starts the loop, and the step it hangs fails saying so.
    const { done } = await run([
      nav(`${site.origin}/loop`),
      click('#go', { timeout: 10_000 }),
      click('#go', { timeout: 10_000 }),
    ]);
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(
      /^Step [23] \(click #go\): the page stopped answering \(a script that never ends, or a hung renderer\)$/,
    );
    await healthy();
  });

  it('a crashed renderer fails its step', async () => {
    const { done } = await run([nav(`${site.origin}/`), nav('chrome://crash'), click('#go')]);
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(/^Step [23] \(/);
    await healthy();
  });
});

describe('an engine that dies fails only its own run', () => {
  it('names the step, ends the session, reports once; the next run works', async () => {
    // An engine entry that throws from nowhere once step 2 waits for an element: the test drops a
    // flag file when the bus says step 2 started (a fixed delay would land in step 1 on a busy host).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-engine-'));
    const entry = path.join(dir, 'crashing.mjs');
    const flag = path.join(dir, 'step-2-started');
    const real = (await engineEntry()).href;
    fs.writeFileSync(
      entry,
      `import fs from 'node:fs';\nconst t = setInterval(() => { if (fs.existsSync(${JSON.stringify(flag)})) { clearInterval(t); throw new Error('injected engine crash'); } }, 20);\nawait import(${JSON.stringify(real)});\n`,
    );
    const offStep = server.app.bus.on('run.stepStarted', (e) => {
      if (e.index === 1) fs.writeFileSync(flag, '');
    });
    server.app.runs.useEngineEntry(new URL(`file://${entry}`));
    try {
      const { done, log, sessionId } = await run([
        nav(`${site.origin}/`),
        { type: 'waitForElement', selectors: [['#never']], timeout: 20_000 },
      ]);
      expect(done.status).toBe('failed');
      expect(done.message).toBe(
        "Step 2 (waitForElement #never): the run's engine stopped unexpectedly: injected engine crash",
      );
      expect(done.results.map((r) => r.result.ok)).toEqual([true, false]);
      expect(ofType(log, 'RunError')).toHaveLength(1);
      expect(ofType(log, 'SessionEnded')).toEqual([expect.objectContaining({ reason: 'completed' })]);
      expect(await treeGone(server.dataDir, sessionId)).toBe(true);
    } finally {
      offStep();
      server.app.runs.useEngineEntry(undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await healthy();
    const next = await run([
      nav(`${site.origin}/`),
      { type: 'customStep', name: 'extract', parameters: { selectors: [['#out']], as: 'out' } },
    ]);
    expect(next.done).toMatchObject({ status: 'succeeded', outputs: { out: 'ready' } });
  });
});
