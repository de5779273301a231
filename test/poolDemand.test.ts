import { describe, expect, it } from 'vitest';
import { PoolDemand, TREE_BYTES, treesMemoryAllows } from '../server/sessions/poolDemand.ts';

const GiB = 1024 ** 3;

describe('warm pool demand', () => {
  it('holds the minimum while nothing is asked for, and twice the creates one start sees under load', () => {
    const d = new PoolDemand({ min: 1, max: 6 });
    const t0 = 1_000_000;
    expect(d.target(10, t0)).toBe(1);
    for (let i = 0; i < 20; i++) d.noteStart(400);
    expect(d.averageStartMs).toBe(400);
    // 5 creates every 3 s for 30 s, starts of 0.4 s: 1.67 × 0.4 × 2 = 1.33, so 2 ready.
    for (let i = 0; i < 50; i++) d.noteTake(t0 + i * 600);
    const now = t0 + 30_000;
    expect(d.rate(now)).toBeCloseTo(5 / 3, 5);
    expect(d.target(10, now)).toBe(2);
    // Slower starts (a loaded machine) need more ready: 1.67 × 1.5 × 2 = 5.
    for (let i = 0; i < 30; i++) d.noteStart(1500);
    expect(d.target(10, now)).toBe(5);
    // Bounded by the free slots (room) and by max; never below min.
    expect(d.target(3, now)).toBe(3);
    expect(d.target(0, now)).toBe(1);
    // The rate is forgotten after the window: back to the minimum.
    expect(d.target(10, now + 61_000)).toBe(1);
  });

  it('sees a batch that begins after a quiet spell at its own rate within seconds', () => {
    const d = new PoolDemand({ min: 1, max: 6 });
    const t0 = 1_000_000;
    for (let i = 0; i < 20; i++) d.noteStart(600);
    // One create is not a rate: taken over 5 s at least.
    d.noteTake(t0);
    expect(d.rate(t0 + 100)).toBeCloseTo(0.2, 5);
    expect(d.target(10, t0 + 100)).toBe(1);
    // 2 a second for 6 s: 13 creates over 6 s, not 13 over the 30 s window (0.43 a second).
    for (let i = 1; i <= 12; i++) d.noteTake(t0 + i * 500);
    expect(d.rate(t0 + 6_000)).toBeCloseTo(13 / 6, 5);
    // 2.17 × 0.6 × 2 = 2.6: three ready.
    expect(d.target(10, t0 + 6_000)).toBe(3);
    // Quiet again: the rate falls as the batch ages, and is gone after the window.
    expect(d.rate(t0 + 20_000)).toBeCloseTo(13 / 20, 5);
    expect(d.rate(t0 + 37_000)).toBe(0);
  });

  it('aims for the largest burst seen lately: ten creates at once want ten ready, whatever the rate', () => {
    const d = new PoolDemand({ min: 1, max: 12 });
    const t0 = 1_000_000;
    for (let i = 0; i < 20; i++) d.noteStart(300);
    // Ten within 200 ms: a rate of 10 / 5 s × 0.3 s × 2 = 1.2, but a burst of ten.
    for (let i = 0; i < 10; i++) d.noteTake(t0 + i * 20);
    expect(d.burst(t0 + 200)).toBe(10);
    expect(d.target(20, t0 + 200)).toBe(10);
    // Bounded like any target, and forgotten with the window.
    expect(d.target(6, t0 + 200)).toBe(6);
    expect(d.target(20, t0 + 31_000)).toBe(1);
    // Creates a second and a half apart are no burst.
    const spaced = new PoolDemand({ min: 1, max: 12 });
    for (let i = 0; i < 10; i++) spaced.noteTake(t0 + i * 1_500);
    expect(spaced.burst(t0 + 15_000)).toBe(1);
  });

  it('lets memory bound the pool, keeping a quarter of the machine free', () => {
    expect(treesMemoryAllows(8 * GiB, 16 * GiB)).toBe(Math.floor((4 * GiB) / TREE_BYTES));
    expect(treesMemoryAllows(3 * GiB, 16 * GiB)).toBe(0);
  });
});
