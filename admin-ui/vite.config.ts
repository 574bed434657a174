import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
// The dev server forwards API calls to the real server, or to the Prism mock with API_PROXY_TARGET=http://127.0.0.1:4010.
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root,
  plugins: [react()],
  resolve: { alias: { 'object.entries': fileURLToPath(new URL('./shims/object-entries.cjs', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/api-system': apiTarget,
      '/files': apiTarget,
    },
  },
});
