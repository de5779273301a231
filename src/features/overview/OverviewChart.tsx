import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { OverviewBucket } from '../../../contract/overview.ts';
import { chartData, hourLabel } from './overview-series.ts';
import { subscribeTheme } from '../../lib/theme.ts';

const HEIGHT = 220;

/** The page's colours, read from styles.css's custom properties (light or dark). */
function palette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    sessions: v('--accent', '#1d4ed8'),
    ok: v('--ok', '#1a7f37'),
    failed: v('--danger', '#b42318'),
    text: v('--muted', '#4a5568'),
    grid: v('--border', '#c9d0da'),
  };
}

function options(width: number, onHover: (idx: number | null) => void): uPlot.Options {
  const c = palette();
  const half = uPlot.paths.bars!({ size: [0.4, 40], align: -1, radius: 0.15 });
  const otherHalf = uPlot.paths.bars!({ size: [0.4, 40], align: 1, radius: 0.15 });
  const axis = {
    stroke: c.text,
    grid: { stroke: c.grid, width: 1 },
    ticks: { stroke: c.grid, width: 1 },
    font: '12px system-ui, sans-serif',
  };
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      // Half an hour either side, so the first and last hours' bars are whole.
      x: { time: true, range: (_u, min, max) => [min - 1800, max + 1800] },
      y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
    },
    axes: [
      { ...axis, space: 60 },
      {
        ...axis,
        size: 40,
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
        values: (_u, ticks) => ticks.map((t) => String(t)),
      },
    ],
    series: [
      {},
      {
        label: 'Sessions started',
        fill: c.sessions,
        stroke: c.sessions,
        width: 0,
        paths: half,
        points: { show: false },
      },
      // Runs stack: failed is drawn as the whole bar (succeeded + failed), then succeeded over its lower part.
      { label: 'Runs ended', fill: c.failed, stroke: c.failed, width: 0, paths: otherHalf, points: { show: false } },
      { label: 'Runs succeeded', fill: c.ok, stroke: c.ok, width: 0, paths: otherHalf, points: { show: false } },
    ],
    hooks: { setCursor: [(u) => onHover(u.cursor.idx ?? null)] },
  };
}

/**
 * Sessions started (left bar of each hour) and runs that ended, succeeded under failed (right
 * bar), over the last 24 hours, with uPlot (canvas, about 20 KB gzip, loaded with this chart
 * only). It follows its box's width and the colour scheme. The page shows the same numbers as a
 * table for keyboards and screen readers; hovering reads one hour out below the chart.
 */
export default function OverviewChart({ buckets, summary }: { buckets: OverviewBucket[]; summary: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const [scheme, setScheme] = useState(0);

  useEffect(() => {
    // The system's scheme or the header's theme toggle: the colours are read anew.
    return subscribeTheme(() => setScheme((n) => n + 1));
  }, []);

  // Built once per colour scheme; new data goes in with setData below.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const u = new uPlot(options(el.clientWidth || 600, setHovered), chartData([]), el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [scheme]);

  useEffect(() => {
    const [x, sessions, succeeded, ended] = chartData(buckets);
    plot.current?.setData([x, sessions, ended, succeeded]);
  }, [buckets, scheme]);

  const hour = hovered === null ? undefined : buckets[hovered];
  return (
    <figure className="overview-chart">
      <div ref={box} className="overview-chart-canvas" role="img" aria-label={summary} />
      <figcaption className="hint">
        {hour
          ? `${hourLabel(hour.start)}: ${hour.sessions_started} started, ${hour.runs_succeeded} succeeded, ${hour.runs_failed} failed`
          : 'Point at an hour to read it; the table below has every hour.'}
      </figcaption>
    </figure>
  );
}
