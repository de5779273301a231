import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const api = process.env.BROWSERDESK_URL ?? 'http://127.0.0.1:8080';

/**
 * The white-label viewer pages the server sends for GET /s/{id}/vnc and /s/{id}/live (it reads
 * dist/embed/vnc.html and live.html). They are one full-frame page with its own title and entry, so
 * they are written once here and built as if they were files under embed/.
 */
const EMBED_PAGES: Record<string, { title: string; entry: string }> = {
  'embed/vnc.html': { title: 'Live browser', entry: '/src/viewer/embed/vncEmbed.tsx' },
  'embed/live.html': { title: 'Live stream', entry: '/src/viewer/embed/liveEmbed.tsx' },
};

const embedPage = ({ title, entry }: { title: string; entry: string }) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <!-- An empty icon: a customer's page embeds this one, so no /favicon.ico request (and 404) per view. -->
    <link rel="icon" href="data:," />
    <title>${title}</title>
    <style>
      html, body, #root { margin: 0; width: 100%; height: 100%; overflow: hidden; background: #202124; }
    </style>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="${entry}"></script>
  </body>
</html>
`;

const pathOf = (file: string) => fileURLToPath(new URL(file, import.meta.url));

function embedPages(): Plugin {
  const pages = new Map(Object.entries(EMBED_PAGES).map(([file, page]) => [pathOf(file), page]));
  return {
    name: 'browserdesk-embed-pages',
    resolveId: (id) => (pages.has(id) ? id : null),
    load(id) {
      const page = pages.get(id);
      return page ? embedPage(page) : null;
    },
  };
}

/**
 * Scalar's reference puts its content in a <main>, which on /docs sits inside the dashboard's own:
 * two mains, one nested (axe: landmark-no-duplicate-main, landmark-main-is-top-level), and no role
 * may be put on a <main> to fix it (aria-allowed-role). Built as a <section> with the same
 * aria-label instead: a named region in the page's one main. Scalar is pinned; a version that no
 * longer renders it this way fails the build here, rather than the page quietly changing.
 * (The dev server's pre-bundled copy keeps Scalar's <main>.)
 */
function scalarContentAsRegion(): Plugin {
  const file = '/node_modules/@scalar/api-reference/dist/components/ApiReference.vue.script.js';
  const main = 'createElementVNode("main", {';
  return {
    name: 'browserdesk-scalar-content-region',
    apply: 'build',
    transform(code, id) {
      if (!id.endsWith(file)) return null;
      if (!code.includes(main)) throw new Error(`${file} renders no <main> any more: check /docs' landmarks with axe`);
      return code.replace(main, 'createElementVNode("section", {');
    },
  };
}

export default defineConfig({
  plugins: [react(), embedPages(), scalarContentAsRegion()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    // The dashboard, plus the viewer pages.
    rolldownOptions: {
      input: {
        main: pathOf('index.html'),
        ...Object.fromEntries(Object.keys(EMBED_PAGES).map((file) => [file.replace(/\.html$/, ''), pathOf(file)])),
      },
    },
  },
  server: {
    proxy: {
      '/api': api,
      '/s': { target: api, ws: true },
    },
  },
});
