import fs from 'node:fs';

/** Clock ticks a second in /proc (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The q-quantile of xs (nearest rank), rounded to a millisecond; null when there are none. */
export const quantile = (xs: number[], q: number): number | null => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!) : null;
};

export const stats = (xs: number[]) => ({ p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), n: xs.length });

/** CPU (user + system) of one process, in ms; with `children`, of the children it reaped too. 0 once it is gone. */
export function processCpuMs(pid: number, children = false): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Busy CPU time of the whole machine (every core, user + system), in milliseconds. */
export function machineBusyMs(): number {
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  const ticks = user! + nice! + system! + irq! + softirq! + steal!;
  return (ticks * 1000) / TICKS_PER_SECOND;
}
