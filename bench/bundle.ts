// Bundle size of the dashboard, one JSON line: gzip bytes of the JavaScript the first page loads
// (dist/index.html's module script and modulepreload links, plus the chunks they import
// statically), of the first route's page on top of that (/ opens the Overview; the Writer's is reported
// too), of the Overview's chart (uPlot), which loads once the page has its numbers, of the noVNC
// viewer chunk, which loads only when a viewer is shown, and of the workflow editor's CodeMirror,
// which loads only when a flow is edited. Run after `npx vite build`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// BUNDLE_DIST: a build elsewhere (vite build --outDir DIR), so a running test's dist/ is left alone.
const DIST = path.resolve(process.env.BUNDLE_DIST ?? path.join(import.meta.dirname, '../dist'));
const read = (p: string) => readFileSync(path.join(DIST, p.replace(/^\//, '')));
const gz = (p: string) => gzipSync(read(p), { level: 9 }).length;

/** Static imports of a chunk (`import … from "./x.js"` and `import "./x.js"`), resolved to dist paths. */
function staticImports(file: string): string[] {
  const code = read(file).toString('utf8');
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[\w${},*\s]+from\s*)?["']([^"']+\.js)["']/g)) {
    found.add(path.posix.join(path.posix.dirname(file), m[1]!));
  }
  return [...found];
}

function closure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const f = queue.shift()!;
    if (seen.has(f)) continue;
    seen.add(f);
    queue.push(...staticImports(f));
  }
  return seen;
}

const html = read('index.html').toString('utf8');
const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
const firstPage = closure([...entry, ...preloads]);
const sum = (files: Iterable<string>) => [...files].reduce((n, f) => n + gz(f), 0);

// The chunk a lazy route or the viewer loads is named after its module by Vite.
const assets = (prefix: string) =>
  readdirSync(path.join(DIST, 'assets'))
    .filter((f) => f.startsWith(prefix) && f.endsWith('.js'))
    .map((f) => `/assets/${f}`);

const overviewPage = new Set([...closure(assets('OverviewPage-'))].filter((f) => !firstPage.has(f)));
const overviewChart = [...closure(assets('OverviewChart-'))].filter((f) => !firstPage.has(f) && !overviewPage.has(f));
const writer = assets('WriterPage-');
const writerExtra = [...closure(writer)].filter((f) => !firstPage.has(f));
const rfb = assets('rfb-');
const viewer = [...closure([...assets('VncViewer-'), ...rfb])].filter((f) => !firstPage.has(f));
// The workflow editor's CodeMirror: its own lazy chunk(s), loaded when a flow is edited (not with its page).
const editorPage = new Set(closure(assets('WorkflowEditPage-')));
const flowEditor = [...closure(assets('FlowCodeEditor-'))].filter((f) => !firstPage.has(f) && !editorPage.has(f));

// Every chunk the first page does not load, by its module name (Vite's hash dropped), gzip bytes.
const lazyChunks = Object.fromEntries(
  assets('')
    .filter((f) => !firstPage.has(f))
    .map((f) => [path.basename(f).replace(/-[\w-]{8}\.js$/, ''), gz(f)] as const)
    .sort((a, b) => b[1] - a[1]),
);

console.log(
  JSON.stringify({
    first_page_js_gzip_bytes: sum(firstPage),
    first_page_js_files: firstPage.size,
    first_route_overview_js_gzip_bytes: sum(overviewPage),
    first_load_total_js_gzip_bytes: sum(firstPage) + sum(overviewPage),
    overview_chart_lazy_js_gzip_bytes: sum(overviewChart),
    first_route_writer_js_gzip_bytes: sum(writerExtra),
    writer_load_total_js_gzip_bytes: sum(firstPage) + sum(writerExtra),
    novnc_chunk_gzip_bytes: sum(rfb),
    viewer_total_js_gzip_bytes: sum(viewer),
    flow_editor_lazy_js_gzip_bytes: sum(flowEditor),
    flow_editor_lazy_js_files: flowEditor.length,
    target_first_page_gzip_bytes: 150 * 1024,
    lazy_chunks_gzip_bytes: lazyChunks,
  }),
);
