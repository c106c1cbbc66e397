import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** The renderer build `flowbench serve` hands to browsers (the desktop app builds it with electron-vite). */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  // Find's worker (src/editor/pattern-worker.ts) loads the node types, whose code splits: an ES module worker.
  worker: { format: 'es' },
  build: {
    outDir: resolve(import.meta.dirname, '../out/renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        bare: resolve(import.meta.dirname, 'bench/bare.html'),
      },
    },
  },
});
