import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const api = process.env.BROWSERDESK_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    // The dashboard, plus the white-label viewer pages the server sends for GET /s/{id}/vnc|live.
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        'embed/vnc': fileURLToPath(new URL('embed/vnc.html', import.meta.url)),
        'embed/live': fileURLToPath(new URL('embed/live.html', import.meta.url)),
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
