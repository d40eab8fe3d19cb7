import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The dashboard's build: web/ in, dist/web out (served by agentd at `/`, see
 * src/http/dashboard.ts). Preact's JSX runtime, no framework plugin needed.
 * Assets get content hashes in their names, which is what lets the server
 * mark them immutable; no inline script or style, to keep within the CSP.
 */
export default defineConfig({
  root: here,
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: path.join(here, '..', 'dist', 'web'),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    sourcemap: false,
  },
});
