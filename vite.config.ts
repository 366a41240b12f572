import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.HEARTH_API_ORIGIN ?? 'http://127.0.0.1:8081';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  define: {
    __BUILD_ID__: JSON.stringify(process.env.HEARTH_BUILD_ID ?? new Date().toISOString()),
    __APP_VERSION__: JSON.stringify(process.env.npm_package_version ?? '0.0.0'),
  },
  build: { outDir: 'dist', sourcemap: false, target: 'es2022' },
  // `npm run dev`: Vite serves the PWA with hot reload and passes /api to the real server.
  server: { port: Number(process.env.PORT ?? 8080), strictPort: true, proxy: { '/api': apiTarget } },
});
