import { describe, expect, it } from 'vitest';
import { StartGate, type StartTicket } from '../server/sessions/browser/startGate.ts';

/** Enter and note the order places were given in. */
function entrant(gate: StartGate, name: string, order: string[], ticket: StartTicket, signal?: AbortSignal) {
  return gate.enter(ticket, signal).then((leave) => {
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

  it('lets urgent starts (a client waits) in before the pool, in their order, also one made urgent while it waits', async () => {
    const gate = new StartGate(1);
    const order: string[] = [];
    const first = await entrant(gate, 'running', order, { urgent: false });
    const pool1 = entrant(gate, 'pool1', order, { urgent: false });
    const claimed: StartTicket = { urgent: false };
    const pool2 = entrant(gate, 'pool2', order, claimed);
    const create = entrant(gate, 'create', order, { urgent: true });
    claimed.urgent = true; // a create took this start while it waited
    first();
    (await pool2)();
    (await create)();
    (await pool1)();
    expect(order).toEqual(['running', 'pool2', 'create', 'pool1']);
  });

  it('drops a start cancelled while it waits, and rejects one cancelled before it came', async () => {
    const gate = new StartGate(1);
    const order: string[] = [];
    const first = await entrant(gate, 'running', order, { urgent: false });
    const abort = new AbortController();
    const cancelled = entrant(gate, 'cancelled', order, { urgent: true }, abort.signal);
    const next = entrant(gate, 'next', order, { urgent: false });
    abort.abort();
    await expect(cancelled).rejects.toThrow(/cancelled/);
    expect(gate.waiting).toBe(1);
    first();
    (await next)();
    expect(order).toEqual(['running', 'next']);
    await expect(gate.enter({ urgent: true }, abort.signal)).rejects.toThrow(/cancelled/);
    expect(gate.active).toBe(0);
  });
});
