import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunStatusResponse } from '../../contract/runs.ts';
import { SessionsPage, CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { SessionLogs } from '../../contract/sessionEvents.ts';
import { startChildServer, type ChildServer } from '../helpers/childServer.ts';
import { serviceProcesses, treeGone, waitForNoServiceProcesses } from '../helpers/processes.ts';

/**
 * The fuzzer's servers and the checks run after every case (issue 23): each server is the real
 * entry point as a child process (test/helpers/childServer.ts), so an input that ends it shows as
 * a failed check with its exit and last output, never as the end of the test runner; a server
 * that died is started again before the next case, so shrinking replays against a live one.
 */

export const FUZZ_API_KEY = 'test_fuzz_0123456789abcdef0123456789';

/** A failed check: what was sent is in fast-check's counterexample; this says what went wrong. */
export class FuzzFailure extends Error {}

export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new FuzzFailure(typeof message === 'string' ? message : message());
}

/** One server under test: its environment, data folder and (once started) process. */
export class Service {
  child: ChildServer | undefined;
  /** How its earlier processes ended when they ended on their own: each is a crash the fuzzer found. */
  readonly crashes: string[] = [];
  readonly dataDir: string;

  constructor(
    readonly name: string,
    private readonly env: Record<string, string> = {},
    /** Run after every start (stored data the properties rely on; it survives restarts anyway). */
    private readonly setup?: (svc: Service) => Promise<void>,
  ) {
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bd-fuzz-${name}-`));
  }

  get url(): string {
    check(this.child, `${this.name}: not started`);
    return this.child.url;
  }

  get alive(): boolean {
    const p = this.child?.process;
    return !!p && p.exitCode === null && p.signalCode === null;
  }

  /** How the process ended and the tail of what it printed, for a failure message. */
  death(): string {
    const p = this.child?.process;
    return `the ${this.name} server process ended (exit code ${p?.exitCode ?? '-'}, signal ${p?.signalCode ?? '-'}); its last output:\n${tail(this.child?.output() ?? '')}`;
  }

  /** Started, or started again when it ended (the crash is kept). Its old sessions' processes are killed first. */
  async up(): Promise<Service> {
    if (this.alive) return this;
    if (this.child) {
      this.crashes.push(this.death());
      // Its browsers outlive a server killed hard: end them, they would count as leaks of the next one.
      for (const p of serviceProcesses(this.dataDir)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          /* gone meanwhile */
        }
      }
      await waitForNoServiceProcesses(this.dataDir, 10_000);
    }
    this.child = await startChildServer({
      dataDir: this.dataDir,
      apiKey: FUZZ_API_KEY,
      env: this.env,
      timeoutMs: 60_000,
    });
    await this.setup?.(this);
    return this;
  }

  async down(): Promise<void> {
    await this.child?.stop().catch(() => undefined);
    await waitForNoServiceProcesses(this.dataDir, 10_000);
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** fetch against the server with the API key, bounded in time. */
  api(pathname: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
    const { timeoutMs = 30_000, ...rest } = init;
    return fetch(this.url + pathname, {
      ...rest,
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'x-api-key': FUZZ_API_KEY, ...(rest.headers as Record<string, string> | undefined) },
    });
  }

  postJson(pathname: string, body: unknown): Promise<Response> {
    return this.api(pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }
}

export function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}

/** The server process is up and answers /api/healthz with 200. */
export async function healthy(svc: Service): Promise<void> {
  check(svc.alive, () => svc.death());
  const res = await fetch(`${svc.url}/api/healthz`, { signal: AbortSignal.timeout(10_000) }).catch((err: Error) => err);
  check(
    !(res instanceof Error),
    () =>
      `${svc.name}: /api/healthz did not answer (${(res as Error).message}); ${svc.alive ? 'the process is still there' : svc.death()}`,
  );
  check(res.status === 200, `${svc.name}: /api/healthz answered ${res.status}`);
}

/** Every session not yet ended (any page), ended through the API. */
export async function endAllSessions(svc: Service): Promise<void> {
  for (const state of ['starting', 'live'] as const) {
    for (let round = 0; round < 20; round++) {
      const res = await svc.api(`/api/sessions?state=${state}&limit=100`);
      check(res.status === 200, `${svc.name}: GET /api/sessions answered ${res.status}`);
      const { items } = SessionsPage.parse(await res.json());
      if (!items.length) break;
      for (const s of items) {
        const end = await svc.api(`/api/sessions/${s.id}`, { method: 'DELETE' });
        check(
          end.status === 200 || end.status === 404,
          `${svc.name}: DELETE /api/sessions/${s.id} answered ${end.status}`,
        );
      }
    }
  }
}

/** A new session starts (POST /api/create_workflow_session) and closes, leaving no process behind. */
export async function nextSessionStarts(svc: Service): Promise<void> {
  const res = await svc.postJson('/api/create_workflow_session', { workflow_name: 'fuzz probe' });
  const text = await res.text();
  check(
    res.status === 200,
    `${svc.name}: the next session did not start: create_workflow_session answered ${res.status} ${text.slice(0, 500)}`,
  );
  const { session_id } = CreateWorkflowSessionResponse.parse(JSON.parse(text));
  const close = await svc.api('/api/close_workflow_session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session_id }),
  });
  check(close.status === 200, `${svc.name}: close_workflow_session of the probe session answered ${close.status}`);
  check(
    await treeGone(svc.dataDir, session_id, 20_000),
    () =>
      `${svc.name}: the probe session ${session_id} ended but its processes are still there: ${describe(svc.dataDir)}`,
  );
}

function describe(dataDir: string): string {
  return JSON.stringify(serviceProcesses(dataDir).map((p) => ({ pid: p.pid, name: p.name, tree: p.tree })));
}

/** Nothing the server started for its data folder is left (with no warm pool and no session, there should be nothing). */
export async function noProcessesLeft(svc: Service, timeoutMs = 20_000): Promise<void> {
  const left = await waitForNoServiceProcesses(svc.dataDir, timeoutMs);
  check(
    left.length === 0,
    () =>
      `${svc.name}: with every session ended, processes are left: ${JSON.stringify(left.map((p) => ({ pid: p.pid, name: p.name, tree: p.tree, cmd: p.cmdline.slice(0, 120) })))}`,
  );
}

/** The checks every case ends with: alive and healthy, every session ended, nothing leaked, a next session starts. */
export async function afterCase(svc: Service): Promise<void> {
  const t0 = Date.now();
  await healthy(svc);
  await endAllSessions(svc);
  await noProcessesLeft(svc);
  await nextSessionStarts(svc);
  await healthy(svc);
  if (process.env.FUZZ_DEBUG) console.log(`fuzz: ${svc.name} checked after the case in ${Date.now() - t0} ms`);
}

/** Poll a run until it is completed; throws naming it when it is not within `timeoutMs`. */
export async function untilRunEnds(
  svc: Service,
  sessionId: string,
  timeoutMs: number,
  onPoll?: (s: RunStatusResponse) => Promise<void>,
): Promise<RunStatusResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    check(svc.alive, () => svc.death());
    const res = await svc.api(`/api/run_workflow_status?session_id=${sessionId}`);
    check(res.status === 200, `${svc.name}: run_workflow_status of ${sessionId} answered ${res.status}`);
    const status = RunStatusResponse.parse(await res.json());
    if (status.completed) return status;
    if (onPoll) await onPoll(status);
    check(
      Date.now() < deadline,
      `run ${sessionId} did not reach a terminal status within ${timeoutMs / 1000} s: ${status.status} "${status.message}" after ${status.results.length} steps`,
    );
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Messages of a run that never got to replay a step: the server says it could not start, or did not. */
export const UNSTARTED_RUN = /^The run (could not start|did not start)\b/;

/**
 * A completed run's status as issue 23 asks: terminal; a success with every step ok; a failure
 * naming the step it failed at (the last result, failed, the ones before it ok), or saying it
 * could not start when no step ran. `totalSteps`: the flow's, when the caller knows it (else the
 * run's own count is taken). `caller.interrupted`: the caller may have interrupted it through the
 * API; `caller.stopped`: may have closed its session, which stops it before a step rather than at one.
 */
export function checkRunOutcome(
  status: RunStatusResponse,
  totalSteps: number | undefined,
  caller: { interrupted?: boolean; stopped?: boolean } = {},
): void {
  const summary = () =>
    `run ${status.session_id}: ${status.status} "${status.message}", results ${JSON.stringify(status.results.map((r) => [r.action, r.result.ok, r.result.error?.slice(0, 200)]))}`;
  check(
    status.completed && (status.status === 'succeeded' || status.status === 'failed'),
    () => `not terminal: ${summary()}`,
  );
  check(status.succeeded === (status.status === 'succeeded'), () => `succeeded disagrees with status: ${summary()}`);
  if (totalSteps === undefined) totalSteps = status.total_actions;
  check(
    status.total_actions === totalSteps,
    () => `total_actions ${status.total_actions}, the flow has ${totalSteps}: ${summary()}`,
  );
  if (caller.interrupted && /^Interrupted through the API after \d+ of \d+ steps/.test(status.message)) {
    check(status.status === 'failed', () => `an interrupted run reads as succeeded: ${summary()}`);
    return;
  }
  const stopped = /^The run was stopped (?:while paused, )?before (?:step (\d+) \(|its first step)/.exec(
    status.message,
  );
  if (caller.stopped && stopped) {
    check(status.status === 'failed', () => `a stopped run reads as succeeded: ${summary()}`);
    const next = stopped[1] === undefined ? 1 : Number(stopped[1]);
    check(
      next === status.results.length + 1 && status.results.every((r) => r.result.ok),
      () => `a stopped run names step ${next} but ran ${status.results.length}: ${summary()}`,
    );
    return;
  }
  if (status.status === 'succeeded') {
    check(
      status.message === `All ${totalSteps} steps succeeded`,
      () => `a success with an unexpected message: ${summary()}`,
    );
    check(
      status.results.length === totalSteps && status.results.every((r) => r.result.ok),
      () => `a success whose steps did not all succeed: ${summary()}`,
    );
    return;
  }
  const ran = status.results.length;
  if (ran === 0) {
    check(
      UNSTARTED_RUN.test(status.message),
      () => `a failed run with no step run does not say it could not start: ${summary()}`,
    );
    return;
  }
  const m = /^Step (\d+) \(/.exec(status.message);
  check(m, () => `a failed run that ran steps does not name its step: ${summary()}`);
  check(Number(m[1]) === ran, () => `the message names step ${m[1]} but the last step run is ${ran}: ${summary()}`);
  check(!status.results[ran - 1]!.result.ok, () => `the step the message names did not fail: ${summary()}`);
  check(
    status.results.slice(0, -1).every((r) => r.result.ok),
    () => `a step before the failing one failed: ${summary()}`,
  );
}

/** The run's session is over: its log ends with SessionEnded, and its process tree is gone. */
export async function runSessionEnded(svc: Service, sessionId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await svc.api(`/api/retrieve_session_logs/${sessionId}`);
    check(res.status === 200, `retrieve_session_logs of ${sessionId} answered ${res.status}`);
    const { logs } = SessionLogs.parse(await res.json());
    if (logs) {
      check(
        logs.at(-1)?.event === 'SessionEnded',
        () => `the log of ${sessionId} does not end with SessionEnded: ${JSON.stringify(logs.slice(-3))}`,
      );
      break;
    }
    check(Date.now() < deadline, `the session ${sessionId} of a completed run did not end within 30 s`);
    await new Promise((r) => setTimeout(r, 150));
  }
  check(
    await treeGone(svc.dataDir, sessionId, 20_000),
    () => `the session ${sessionId} ended but its processes are still there: ${describe(svc.dataDir)}`,
  );
}

/** Seed and budget from the environment: FUZZ_SEED replays a run, FUZZ_MINUTES loops the properties that long. */
export const fuzzEnv = {
  seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31,
  path: process.env.FUZZ_PATH || undefined,
  minutes: process.env.FUZZ_MINUTES ? Number(process.env.FUZZ_MINUTES) : 0,
  summary: process.env.FUZZ_SUMMARY || undefined,
  only: process.env.FUZZ_ONLY ? process.env.FUZZ_ONLY.split(',') : undefined,
};
