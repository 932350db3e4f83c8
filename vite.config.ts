import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The production server (server.js) imports server/app.ts from the SSR build,
  // so the request listener and the routes share one module graph.
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : {},
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
}));
