import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The client: one page (src/ui) and one module worker (src/worker), built to dist/.
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  build: { outDir: 'dist', sourcemap: true, target: 'es2022', chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://127.0.0.1:8787', '/auth/': 'http://127.0.0.1:8787' } },
});
