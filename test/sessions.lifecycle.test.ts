import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateWorkflowSessionResponse, Session } from '../contract/sessions.ts';
import type { BusEvents } from '../server/events/bus.ts';
import type { BrowserSessionManager } from '../server/sessions/sessionManager.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { browserProcess, countByName, serviceProcesses, waitForNoServiceProcesses } from './helpers/processes.ts';
import { testDatabaseEnv } from './helpers/testDatabase.ts';
import { sessionDirsOf, sessionsRootOf } from '../server/sessions/isolation/sessionDirs.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => closeLeavingNothing(server));

async function createSession(s: TestServer, body: Record<string, unknown> = {}) {
  const res = await postJson(s, '/api/create_workflow_session', { workflow_name: 'lifecycle', ...body });
  expect(res.status).toBe(200);
  return CreateWorkflowSessionResponse.parse(await res.json());
}

async function sessionOf(s: TestServer, id: string) {
  return Session.parse(await (await s.api(`/api/sessions/${id}`)).json());
}

/** Field 19 of /proc/PID/stat (after the parenthesised command name). */
const niceOf = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

function nextEnded(s: TestServer, id: string): Promise<BusEvents['session.ended']> {
  return new Promise((resolve) => {
    const off = s.app.bus.on('session.ended', (e) => {
      if (e.session_id !== id) return;
      off();
      resolve(e);
    });
  });
}

describe('session lifecycle leaves no process behind', () => {
  it('after many create/end cycles', async () => {
    for (let i = 0; i < 4; i++) {
      const s = await createSession(server);
      expect(countByName(server.dataDir).Xvfb).toBe(1);
      // Chromium's own temp folder (its singleton socket) goes with the session too.
      const singleton = path.dirname(
        fs.readlinkSync(path.join(sessionDirsOf(server.dataDir, s.session_id).profile, 'SingletonSocket')),
      );
      const res = await server.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });
      expect(res.status).toBe(200);
      // Gone when DELETE answers, not some time later.
      expect(serviceProcesses(server.dataDir).map((p) => `${p.name}: ${p.cmdline.slice(0, 120)}`)).toEqual([]);
      expect(fs.existsSync(singleton)).toBe(false);
    }
    // Session folders go at once (a rename out of the way; the copy in .trash-* is deleted behind).
    expect(fs.readdirSync(sessionsRootOf(server.dataDir)).filter((d) => !d.startsWith('.trash-'))).toEqual([]);
  }); // four browsers started one after another: more than a minute on a loaded host (the 180 s default)

  it('after Chromium is killed with SIGKILL: the session is crashed and the rest of its tree ends', async () => {
    const s = await createSession(server, { webhook_url: 'http://127.0.0.1:9/hook', metadata: '{"k":"v"}' });
    const ended = nextEnded(server, s.session_id);
    process.kill(browserProcess(server.dataDir, s.session_id).pid, 'SIGKILL');
    expect(await ended).toMatchObject({
      reason: 'crashed',
      webhook_url: 'http://127.0.0.1:9/hook',
      metadata: '{"k":"v"}',
    });
    expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
    expect(await sessionOf(server, s.session_id)).toMatchObject({ state: 'ended', end_reason: 'crashed' });
  });

  it('after its timeout (a 1 s session made through the manager; HTTP allows 30 s at least)', async () => {
    const workflow = await server.app.store.workflows.findOrCreateByName('lifecycle');
    const { session } = await server.app.sessions.create({
      workflowId: workflow.id,
      timeoutSeconds: 1,
      proxies: false,
    });
    const ended = nextEnded(server, session.id);
    expect(serviceProcesses(server.dataDir).length).toBeGreaterThan(0);
    expect((await ended).reason).toBe('timed_out');
    expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
    expect(await sessionOf(server, session.id)).toMatchObject({ state: 'ended', end_reason: 'timed_out' });
  });

  it('after a failed start: the session is failed_to_start and its display is gone', async () => {
    const broken = await startServer({ CHROMIUM_PATH: '/bin/false' });
    try {
      const res = await postJson(broken, '/api/create_workflow_session', { workflow_name: 'broken' });
      expect(res.status).toBe(503);
      const list = (await (await broken.api('/api/sessions')).json()) as { items: Session[] };
      expect(list.items).toHaveLength(1);
      expect(list.items[0]).toMatchObject({ state: 'ended', end_reason: 'failed_to_start' });
      expect(await waitForNoServiceProcesses(broken.dataDir)).toEqual([]);
    } finally {
      await broken.close();
      fs.rmSync(broken.dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  });

  it('after the server closes while sessions are still starting', async () => {
    const closing = await startServer();
    try {
      const workflow = await closing.app.store.workflows.findOrCreateByName('closing');
      const starts = [1, 2].map(() =>
        closing.app.sessions.create({ workflowId: workflow.id, timeoutSeconds: 60, proxies: false }),
      );
      // Close as soon as the first display is up (within 30 s, however loaded the host): the browsers are mid-start.
      for (let i = 0; i < 3_000 && !countByName(closing.dataDir).Xvfb; i++) await new Promise((r) => setTimeout(r, 10));
      expect(countByName(closing.dataDir).Xvfb).toBeGreaterThan(0);
      await closing.close();
      const outcomes = await Promise.allSettled(starts);
      expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
      expect(serviceProcesses(closing.dataDir)).toEqual([]);
    } finally {
      fs.rmSync(closing.dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  });

  it('with a warm pool: creation takes the ready browser, the pool refills, close ends all', async () => {
    const pooled = await startServer({ WARM_POOL_SIZE: '1', WARM_POOL_MAX: '1' });
    try {
      const manager = pooled.app.sessions as BrowserSessionManager;
      await manager.whenWarm();
      expect(manager.warm).toBe(1);
      const warmTree = browserProcess(pooled.dataDir);
      const s = await createSession(pooled);
      // The session runs in the browser that was waiting, under the same id, at normal priority
      // again, while the refill starts at a lower one so it never slows the sessions in use.
      expect(warmTree.cmdline).toContain(sessionDirsOf(pooled.dataDir, s.session_id).profile);
      await manager.whenWarm();
      expect(manager.warm).toBe(1);
      // (Xvfb: single-threaded, and Chromium sets some of its own threads' priorities.)
      const xvfbs = serviceProcesses(pooled.dataDir).filter((p) => p.name === 'Xvfb');
      expect(xvfbs).toHaveLength(2);
      expect(xvfbs.filter((p) => p.tree === s.session_id)).toHaveLength(1);
      expect(niceOf(xvfbs.find((p) => p.tree === s.session_id)!.pid)).toBe(0);
      expect(niceOf(xvfbs.find((p) => p.tree !== s.session_id)!.pid)).toBe(process.getuid?.() === 0 ? 10 : 0);
      expect(countByName(pooled.dataDir).Xvfb).toBe(2);
    } finally {
      await pooled.close();
    }
    expect(await waitForNoServiceProcesses(pooled.dataDir)).toEqual([]);
    fs.rmSync(pooled.dataDir, { recursive: true, force: true, maxRetries: 3 });
  });

  it('after a server crash: the next start marks its sessions crashed and reaps their processes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-test-'));
    const apiKey = `test_${randomBytes(16).toString('hex')}`;
    // The real server in its own process, so it can die without ending anything.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
      cwd: ROOT,
      // Its store is the one the restart below opens (the Postgres pass: the folder's database).
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        BROWSERDESK_API_KEY: apiKey,
        // Exactly one pooled tree: the create rate would otherwise grow the pool (Little's law), and a
        // third tree caught mid-start by the kill makes the counts below a race.
        WARM_POOL_SIZE: '1',
        WARM_POOL_MAX: '1',
        LOG_LEVEL: 'info',
        PUBLIC_URL: '',
        ...(await testDatabaseEnv({}, dataDir)),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /dashboard at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
      });
      const res = await fetch(`${url}/api/create_workflow_session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ workflow_name: 'crash' }),
      });
      expect(res.status).toBe(200);
      const { session_id } = (await res.json()) as { session_id: string };
      // Let the warm pool refill too, so the crash leaves a session's tree and a pooled one (its browser
      // starts at a lower priority: up to a minute on a loaded host).
      for (let i = 0; i < 1_200 && countByName(dataDir).x11vnc !== 2; i++) await new Promise((r) => setTimeout(r, 50));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      // The crash left both trees running: that is what the restart must clean up.
      expect(countByName(dataDir)).toMatchObject({ Xvfb: 2, x11vnc: 2 });

      const restarted = await startServer({ BROWSERDESK_API_KEY: apiKey }, dataDir);
      try {
        expect(await sessionOf(restarted, session_id)).toMatchObject({ state: 'ended', end_reason: 'crashed' });
        expect(await waitForNoServiceProcesses(dataDir)).toEqual([]);
        expect(fs.existsSync(sessionDirsOf(dataDir, session_id).root)).toBe(false);
      } finally {
        await restarted.close();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      // Whatever happened above, nothing of this data folder may survive the test.
      for (const p of serviceProcesses(dataDir)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  }, 180_000); // a server process, its warm pool and a restart: minutes on a loaded host
});
