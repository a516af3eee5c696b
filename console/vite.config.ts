import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { landingSize } from './landing-size.ts';
import { precompress } from './precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

// Built from the repository root (`npm run build:console`), so the root is pinned here.
export default defineConfig({
  root,
  plugins: [react(), tailwindcss(), landingSize(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
