import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import { zplWasmAsset } from './scripts/build/zpl-wasm-asset';

// Main-side entries: the Electron shell, the web host, the CLI and the sandbox all share the
// station's core and are bundled side by side into out/main.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/electron/main.ts'),
          web: resolve('src/main/web-host/cli.ts'),
          cli: resolve('src/main/cli/index.ts'),
          sandbox: resolve('src/sandbox/cli.ts'),
          // The worker thread spreadsheets are parsed in (src/main/spreadsheets/spreadsheet-parser.ts starts it).
          'spreadsheet-parser': resolve('src/main/spreadsheets/spreadsheet-parser-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require() anything: bundle it whole, as CommonJS.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    // The ZPL preview worker's WebAssembly as a file of its own, compiled while it downloads.
    worker: { plugins: () => [zplWasmAsset()] },
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified; minified, the first screen loads a third less.
      minify: true,
      // The big chunks are the label preview's (pdf.js's worker, 1.2 MB) and the sandbox panel's
      // barcodes (bwip-js, 0.9 MB), loaded only when first needed (docs/screen.md, Label preview):
      // the first screen does not wait on them, so their size is no warning for `npm start`.
      chunkSizeWarningLimit: 1_300,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
