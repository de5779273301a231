import { describe, expect, it } from 'vitest';
import { AtCapacity } from '../server/domain/errors.ts';
import { StartGate, type EnterOptions, type StartTicket } from '../server/sessions/browser/startGate.ts';

/** Enter and note the order places were given in. */
function entrant(gate: StartGate, name: string, order: string[], ticket: StartTicket, options?: EnterOptions) {
  return gate.enter(ticket, options).then((leave) => {
    order.push(name);
    return leave;
  });
}

describe('browser start gate', () => {
  it('runs at most its limit at once and lets the rest in, in order, as places are given back', async () => {
    const gate = new StartGate(2);
    const order: string[] = [];
    const a = entrant(gate, 'a', order, { urgent: false });
    const b = entrant(gate, 'b', order, { urgent: false });
    const c = entrant(gate, 'c', order, { urgent: false });
    const d = entrant(gate, 'd', order, { urgent: false });
    const [leaveA, leaveB] = await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
    expect(gate.active).toBe(2);
    expect(gate.waiting).toBe(2);
    leaveA();
    leaveA(); // a second call gives back nothing more
    const leaveC = await c;
    expect(order).toEqual(['a', 'b', 'c']);
    expect(gate.active).toBe(2);
    leaveB();
    leaveC();
    (await d)();
    expect(gate.active).toBe(0);
    expect(gate.waiting).toBe(0);
  });

  it('lets urgent starts (a client waits) in before the pool, in their order, and marks each ticket placed', async () => {
    const gate = new StartGate(1);
    const order: string[] = [];
    const first = await entrant(gate, 'running', order, { urgent: false });
    const pool1: StartTicket = { urgent: false };
    const pool1Placed = entrant(gate, 'pool1', order, pool1);
    const create1 = entrant(gate, 'create1', order, { urgent: true });
    const create2 = entrant(gate, 'create2', order, { urgent: true });
    first();
    (await create1)();
    const leave2 = await create2;
    expect(pool1.placed).toBeUndefined();
    leave2();
    (await pool1Placed)();
    expect(pool1.placed).toBe(true);
    expect(order).toEqual(['running', 'create1', 'create2', 'pool1']);
  });

  it('drops a start cancelled while it waits, and rejects one cancelled before it came', async () => {
    const gate = new StartGate(1);
    const order: string[] = [];
    const first = await entrant(gate, 'running', order, { urgent: false });
    const abort = new AbortController();
    const cancelled = entrant(gate, 'cancelled', order, { urgent: true }, { signal: abort.signal });
    const next = entrant(gate, 'next', order, { urgent: false });
    abort.abort();
    await expect(cancelled).rejects.toThrow(/cancelled/);
    expect(gate.waiting).toBe(1);
    first();
    (await next)();
    expect(order).toEqual(['running', 'next']);
    await expect(gate.enter({ urgent: true }, { signal: abort.signal })).rejects.toThrow(/cancelled/);
    expect(gate.active).toBe(0);
  });

  it('holds a bounded line of client starts: one more impatient client is refused at once, a patient one waits', async () => {
    const gate = new StartGate(1, 2);
    const order: string[] = [];
    const first = await entrant(gate, 'running', order, { urgent: true });
    const patient = { patienceMs: 60_000 };
    const a = entrant(gate, 'a', order, { urgent: true }, patient);
    const b = entrant(gate, 'b', order, { urgent: true }, patient);
    // The pool's refills are not client starts: they neither fill the line nor are refused.
    const pool = entrant(gate, 'pool', order, { urgent: false });
    const refused = gate.enter({ urgent: true }, patient);
    await expect(refused).rejects.toBeInstanceOf(AtCapacity);
    await expect(refused).rejects.toThrow(
      /busy starting browsers \(1 start at a time and 2 already wait\); retry in \d+ seconds/,
    );
    // A queued run's start (no patience) joins a full line and waits its turn.
    const run = entrant(gate, 'run', order, { urgent: true });
    expect(gate.waiting).toBe(4);
    first();
    for (const p of [a, b, run, pool]) (await p)();
    expect(order).toEqual(['running', 'a', 'b', 'run', 'pool']);
    expect(gate.active).toBe(0);
  });

  it('refuses a client start that waited its patience out, with the Retry-After it tells, and lets the line move on', async () => {
    const gate = new StartGate(1);
    const order: string[] = [];
    const first = await entrant(gate, 'running', order, { urgent: true });
    const tired = gate.enter({ urgent: true }, { patienceMs: 20 });
    const next = entrant(gate, 'next', order, { urgent: true });
    const err = await tired.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AtCapacity);
    expect((err as AtCapacity).message).toMatch(
      /busy starting browsers \(no start came free within 0 s\); retry in \d+ seconds/,
    );
    expect((err as AtCapacity).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((err as AtCapacity).retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(gate.waiting).toBe(1);
    first();
    (await next)();
    expect(order).toEqual(['running', 'next']);
  });
});
