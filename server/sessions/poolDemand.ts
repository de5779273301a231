import fs from 'node:fs';
import os from 'node:os';

/** How far back creates count toward the rate. */
const RATE_WINDOW_MS = 30_000;
/** The shortest span a rate is taken over: a create or two alone are not a rate. */
const MIN_RATE_SPAN_MS = 5_000;
/** Creates that arrive within this span of each other are one burst (ten clients at once, a batch). */
const BURST_SPAN_MS = 1_000;
/** A browser tree's share of memory, measured (bench/sessions.ts: about 230 MB PSS each). */
export const TREE_BYTES = 300 * 1024 * 1024;

/**
 * How many ready browsers the warm pool should hold. Little's law: while one browser starts,
 * rate × start time creates arrive; the pool holds twice that, so a slow start does not empty it.
 * And at least the largest burst seen lately: ten creates at once come as one, not as a rate, and
 * the next ten will find ten ready only if the pool aims for ten. Recent creates set the rate and
 * the burst; measured starts set the start time (an average that follows the machine's load).
 */
export class PoolDemand {
  private readonly takes: number[] = [];
  private startMs = 1000;

  constructor(private readonly bounds: { min: number; max: number }) {}

  noteTake(now = Date.now()): void {
    this.takes.push(now);
    this.forget(now);
  }

  noteStart(ms: number): void {
    // Weighted toward the recent starts: the machine's load changes.
    this.startMs = this.startMs * 0.7 + ms * 0.3;
  }

  /**
   * Creates per second since the oldest one the window holds (at least MIN_RATE_SPAN_MS): a batch
   * that begins after a quiet spell counts at its own rate within seconds, where dividing by the
   * whole window would take its 30 s to see it, the pool staying small all that while.
   */
  rate(now = Date.now()): number {
    this.forget(now);
    const oldest = this.takes[0];
    if (oldest === undefined) return 0;
    return this.takes.length / (Math.max(MIN_RATE_SPAN_MS, now - oldest) / 1000);
  }

  get averageStartMs(): number {
    return Math.round(this.startMs);
  }

  /** Trees to keep ready, within [min, max] and what `room` (session slots, memory) allows beyond min. */
  target(room: number, now = Date.now()): number {
    return Math.max(this.bounds.min, Math.min(this.bounds.max, this.wanted(now), room));
  }

  /**
   * The most creates that came within BURST_SPAN_MS of each other in the window (the takes are in
   * time order, so one pass with two ends finds it).
   */
  burst(now = Date.now()): number {
    this.forget(now);
    let most = 0;
    for (let first = 0, last = 0; last < this.takes.length; last++) {
      while (this.takes[last]! - this.takes[first]! > BURST_SPAN_MS) first++;
      most = Math.max(most, last - first + 1);
    }
    return most;
  }

  /** Little's law with twice the headroom (creates that arrive while one tree starts, times two), or the burst. */
  private wanted(now: number): number {
    return Math.max(Math.ceil(this.rate(now) * (this.startMs / 1000) * 2), this.burst(now));
  }

  private forget(now: number): void {
    while (this.takes.length && this.takes[0]! < now - RATE_WINDOW_MS) this.takes.shift();
  }
}

/** Bytes the kernel says can be used without swapping (MemAvailable), or os.freemem() where there is no /proc. */
export function availableMemoryBytes(): number {
  try {
    const m = /^MemAvailable:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return os.freemem();
}

/** Ready browsers memory allows on top of what runs now, keeping a quarter of the machine free. */
export function treesMemoryAllows(available = availableMemoryBytes(), total = os.totalmem()): number {
  return Math.max(0, Math.floor((available - total / 4) / TREE_BYTES));
}
