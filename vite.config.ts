import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// The client: one page (src/ui) and one module worker (src/worker), built to dist/.
export default defineConfig({
  plugins: [
    react(),
    // The service worker (issue 14 §3): src/sw/sw.ts built to dist/sw.js with the build's files and their
    // revisions injected as its precache list. src/ui/main.tsx registers it; no manifest, no injected script.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: { globPatterns: ['**/*.{html,js,css,svg,png,woff2}'], maximumFileSizeToCacheInBytes: 8 * 1024 * 1024 },
    }),
  ],
  worker: { format: 'es' },
  build: { outDir: 'dist', sourcemap: true, target: 'es2022', chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://127.0.0.1:8787', '/auth/': 'http://127.0.0.1:8787' } },
});
