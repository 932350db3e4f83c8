import { defineConfig } from "vite";

/**
 * The command-line tools the production image runs without tsx or the development
 * dependencies (docs/deploy.md): `npm run build` bundles them with the app code they use into
 * build/cli/*.js. npm packages stay imports, resolved from the image's production node_modules.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The site's public files are the client build's, not the tools'.
  publicDir: false,
  build: {
    ssr: true,
    outDir: "build/cli",
    emptyOutDir: true,
    target: "node20",
    rollupOptions: {
      input: { "create-admin": "scripts/create-admin.ts" },
      output: { entryFileNames: "[name].js", format: "es" },
    },
  },
});
