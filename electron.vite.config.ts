import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'electron/main.ts') } },
      // The addon is loaded from node_modules at run time, never bundled.
      externalizeDeps: true,
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'electron/preload.ts') },
        // A sandboxed preload runs as a plain script: CommonJS, one file (no import statements).
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    build: { rollupOptions: { input: { index: resolve(import.meta.dirname, 'renderer/index.html') } } },
    plugins: [react()],
    // As in renderer/vite.config.ts: Find's worker is an ES module.
    worker: { format: 'es' },
  },
});
