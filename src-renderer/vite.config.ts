// The renderer: Svelte 5 built by Vite into src-renderer/dist. Electron serves these files from
// its own app:// scheme and `pipedejavu serve` over HTTP, both from the same reader
// (src-main/adapters/web/renderer-files.ts); the relative base works under either root.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(({ command }) => {
  // A build is always a production build, even when started under NODE_ENV=test (vitest's
  // global setup runs scripts/build.mjs): otherwise Svelte's dev runtime and checks ship.
  // Vite reads NODE_ENV after loading this file, as its docs suggest for this case.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root,
    base: './',
    plugins: [svelte({ configFile: false, compilerOptions: { runes: true } })],
    build: {
      outDir: fileURLToPath(new URL('./dist', import.meta.url)),
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: true,
      chunkSizeWarningLimit: 1024,
    },
    server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  };
});
