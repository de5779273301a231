import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firstLoadScripts,
  overBudget,
  scriptsOfPage,
  staticImportsOf,
  type LoadedScript,
} from './helpers/firstLoadJs.ts';

/** Issue 38: the dashboard's first-load JS stays within 150 kB gzip (Vite's kB: 1000 bytes). */
const BUDGET_BYTES = 150_000;

describe('reading what a page loads at first', () => {
  it('takes the module entry and preloads, not classic inline scripts or styles', () => {
    const html = `<script>var x = 1</script><script type="module" crossorigin src="/assets/main-1.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/react-2.js"><link rel="stylesheet" href="/assets/main.css">
      <link rel="icon" href="/favicon.svg">`;
    expect(scriptsOfPage(html)).toEqual(['/assets/main-1.js', '/assets/react-2.js']);
  });

  it('follows static imports and leaves lazy ones out', () => {
    const code = `import{a as b}from"./react-2.js";import"./side-3.js";export{c}from"./re-4.js";const l=()=>import("./Lazy-5.js");`;
    expect(staticImportsOf(code)).toEqual(['./react-2.js', './side-3.js', './re-4.js']);
  });

  it('counts each script once through the import graph, and names the biggest when over budget', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-first-load-'));
    try {
      fs.mkdirSync(path.join(dist, 'assets'));
      fs.writeFileSync(path.join(dist, 'index.html'), '<script type="module" src="/assets/main.js"></script>');
      fs.writeFileSync(path.join(dist, 'assets/main.js'), 'import"./a.js";import"./b.js";import("./lazy.js")');
      fs.writeFileSync(path.join(dist, 'assets/a.js'), 'import"./b.js";');
      fs.writeFileSync(path.join(dist, 'assets/b.js'), `export const big=${JSON.stringify(os.hostname().repeat(50))}`);
      const scripts = firstLoadScripts(dist);
      expect(scripts.map((s) => s.file).sort()).toEqual(['/assets/a.js', '/assets/b.js', '/assets/main.js']);
      expect(overBudget(scripts, 1_000_000)).toBeNull();
      expect(overBudget(scripts, 10)).toMatch(
        /^First-load JS is .* kB gzip, over the 0\.0 kB budget\. Biggest: \/assets\//,
      );
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('the built dashboard', () => {
  let dist = '';
  let scripts: LoadedScript[] = [];
  beforeAll(() => {
    // A build of its own, into a temp folder: dist/ may be stale or mid-rebuild by someone else.
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-first-load-dist-'));
    const built = spawnSync(
      process.execPath,
      [
        path.resolve('node_modules/vite/bin/vite.js'),
        'build',
        '--outDir',
        dist,
        '--emptyOutDir',
        '--logLevel',
        'error',
      ],
      // Vitest sets NODE_ENV=test, which would build React's development bundles (twice the size).
      { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
    );
    expect(built.status, built.stderr).toBe(0);
    scripts = firstLoadScripts(dist);
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  it('loads at most 150 kB of gzipped JS before its first page runs (lazy chunks aside)', () => {
    // The entry is there, with what it needs: a measure of nothing would pass any budget.
    expect(scripts.some((s) => /\/assets\/main-[\w-]+\.js$/.test(s.file))).toBe(true);
    expect(scripts.length).toBeGreaterThan(3);
    const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    console.log(`first-load JS: ${(total / 1000).toFixed(1)} kB gzip in ${scripts.length} scripts`);
    expect(overBudget(scripts, BUDGET_BYTES)).toBeNull();
  });
});
