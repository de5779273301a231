import { parentPort } from 'node:worker_threads';
import type { ConnectionTransport } from 'puppeteer-core';
import { replayFlow } from './replay.ts';
import type { AiRequest, EngineStart, FromEngine, ToEngine } from './messages.ts';

/**
 * The run's engine thread: @puppeteer/replay and its puppeteer objects live here, not on the
 * server's event loop, so whatever a flow or a page makes them throw ends this thread only (the
 * server fails the run, naming the step). The browser is reached through the server's CDP hub and
 * its policy, message for message over the thread's port.
 */
const port = parentPort!;

/**
 * @puppeteer/replay starts waiting for a step's asserted navigation before the step acts, and
 * attaches a handler to that wait only after the action: when the wait fails first (a refused
 * connection, a page slower than the step) its rejection is unhandled for a while, and when the
 * action fails too it stays so; either way the step fails through the action or the later await.
 * Those rejections are expected here. Any other unhandled rejection ends this thread, which fails
 * the run at its step (engine/containedRun.ts).
 */
process.on('unhandledRejection', (reason) => {
  if (reason instanceof Error && /\b(waitForEvents|LifecycleWatcher)\b/.test(reason.stack ?? '')) return;
  throw reason;
});
// A thread may be started before its run (engineThreads.ts): the run comes as the first message.
const start = await new Promise<EngineStart>((resolve) =>
  port.once('message', (msg: ToEngine) => {
    if (msg.t === 'start') resolve(msg.start);
  }),
);
const post = (msg: FromEngine) => port.postMessage(msg);

const transport: Partial<Pick<ConnectionTransport, 'onmessage' | 'onclose'>> & ConnectionTransport = {
  send: (data: string) => post({ t: 'cdp', data }),
  close: () => undefined,
};
const abort = new AbortController();
const gates = new Map<number, (go: boolean, answer: string | null) => void>();
let nextGate = 1;
const asked = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
let nextAsk = 1;

/** Ask the server's model (its RunAi) and wait for the answer; rejects with its message, or when the run stops. */
function askAi(request: AiRequest): Promise<unknown> {
  if (abort.signal.aborted) return Promise.reject(new Error('the run was stopped'));
  const id = nextAsk++;
  return new Promise((resolve, reject) => {
    asked.set(id, { resolve, reject });
    post({ t: 'ai', id, ...request });
  });
}

/** Ask the server's pause gate; resolves when it lets the run go on (with the person's answer, if one came), rejects when the run stopped. */
function askGate(msg: { t: 'beforeStep' } | { t: 'pause'; message: string }): Promise<string | null> {
  const id = nextGate++;
  return new Promise((resolve, reject) => {
    gates.set(id, (go, answer) => (go ? resolve(answer) : reject(new Error('the run was stopped while paused'))));
    post({ ...msg, id });
  });
}

port.on('message', (msg: ToEngine) => {
  if (msg.t === 'cdp') transport.onmessage?.(msg.data);
  else if (msg.t === 'cdpClosed') transport.onclose?.();
  else if (msg.t === 'abort') {
    abort.abort(msg.reason);
    for (const { reject } of asked.values()) reject(new Error('the run was stopped'));
    asked.clear();
  } else if (msg.t === 'aiDone') {
    const ask = asked.get(msg.id);
    asked.delete(msg.id);
    if (msg.ok) ask?.resolve(msg.value);
    else ask?.reject(new Error(msg.error));
  } else if (msg.t === 'gate') {
    gates.get(msg.id)?.(msg.go, msg.answer ?? null);
    gates.delete(msg.id);
  }
});

const outcome = await replayFlow({
  connect: () => Promise.resolve({ transport }),
  flow: start.flow,
  variables: start.variables,
  filesDir: start.filesDir,
  credentials: new Map(start.credentials),
  credentialOrigins: new Map(start.credentialOrigins),
  privateNetworksAllowed: start.privateNetworksAllowed,
  signal: abort.signal,
  beforeStep: () => askGate({ t: 'beforeStep' }).then(() => undefined),
  pauseHere: (message) => askGate({ t: 'pause', message }),
  ai: askAi,
  heal: start.heal,
  onHealed: (heal) => post({ t: 'healed', heal }),
  onStepStart: (index, action, params) => post({ t: 'stepStart', index, action, params }),
  onStep: (index, result, outputs) => post({ t: 'step', index, result, outputs }),
  onDialog: (dialog) => post({ t: 'dialog', dialog }),
});
post({ t: 'done', outcome: { ...outcome, screenshot: outcome.screenshot && new Uint8Array(outcome.screenshot) } });
port.close();
