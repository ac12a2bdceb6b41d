import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { META_CONTENT_SECURITY_POLICY } from '../shared/csp';

/** Puts the one Content-Security-Policy (shared/csp.ts) into index.html. */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'workbench-csp',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
  };
}

// The renderer builds to dist/renderer with relative asset paths, so the same files load from
// Electron (file://) and from the web-mode server.
export default defineConfig({
  root: __dirname,
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  build: {
    outDir: '../dist/renderer',
    // No sourcemaps: these files are what the package ships (package.json "build".files also drops *.map).
    sourcemap: false,
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod places /* @__PURE__ */ comments where Rollup cannot use them; harmless, and not ours.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules/zod/')) return;
        warn(warning);
      },
    },
  },
  worker: { format: 'es' },
});
