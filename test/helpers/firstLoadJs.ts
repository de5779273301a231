import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** One script a page loads before anything else: its path under the site's root and its gzip size. */
export interface LoadedScript {
  file: string;
  gzipBytes: number;
}

/** The module scripts an HTML page runs or preloads at first: `<script type="module" src>` and `<link rel="modulepreload" href>`. */
export function scriptsOfPage(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const module = /\btype="module"/.test(tag) || /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+\.js)"/.exec(tag)?.[1];
    if (module && url) found.push(url);
  }
  return found;
}

/**
 * The chunks a built module imports statically (`import"./a.js"`, `… from"./a.js"`), as written.
 * `import("./a.js")` is a lazy chunk, fetched only when a page asks for it, so it is left out.
 */
export function staticImportsOf(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)].map((m) => m[1]!);
}

/**
 * Every script the page at `dist/<page>` loads before it can run: its entry and module preloads,
 * and what they import statically, followed through; each once, with its gzip size.
 */
export function firstLoadScripts(dist: string, page = 'index.html'): LoadedScript[] {
  const seen = new Map<string, LoadedScript>();
  const visit = (url: string, from: string) => {
    const file = url.startsWith('/') ? path.posix.normalize(url) : path.posix.join(path.posix.dirname(from), url);
    if (seen.has(file)) return;
    const code = fs.readFileSync(path.join(dist, file));
    seen.set(file, { file, gzipBytes: zlib.gzipSync(code).length });
    for (const next of staticImportsOf(code.toString('utf8'))) visit(next, file);
  };
  for (const url of scriptsOfPage(fs.readFileSync(path.join(dist, page), 'utf8'))) visit(url, `/${page}`);
  return [...seen.values()];
}

/** What a budget check says: the total, and when over, the biggest scripts (what to split first). */
export function overBudget(scripts: readonly LoadedScript[], budgetBytes: number): string | null {
  const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
  if (total <= budgetBytes) return null;
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  const biggest = [...scripts]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .slice(0, 5)
    .map((s) => `${s.file} ${kb(s.gzipBytes)}`)
    .join(', ');
  return `First-load JS is ${kb(total)} gzip, over the ${kb(budgetBytes)} budget. Biggest: ${biggest}.`;
}
