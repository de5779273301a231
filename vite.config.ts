import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.BROWSERDESK_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, target: 'es2022' },
  server: {
    proxy: {
      '/api': api,
      '/s': { target: api, ws: true },
    },
  },
});
