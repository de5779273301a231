import { defineConfig } from 'vite';

// `vite preview` for the e2e run: only the proxy to the service. The keys are anchored so the
// dashboard's own /sessions and /settings pages are not sent to the service as /s/… paths.
const api = process.env.BROWSERDESK_URL ?? 'http://127.0.0.1:8182';

export default defineConfig({
  preview: {
    proxy: {
      '^/api/': api,
      '^/s/': { target: api, ws: true },
    },
  },
});
