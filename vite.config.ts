import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|map)$/;
const encoders = {
  br: (bytes: Uint8Array) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
  gzip: (bytes: Uint8Array) => promisify(gzip)(bytes, { level: constants.Z_BEST_COMPRESSION }),
};

/**
 * The client's fingerprinted files compressed once, at the best settings, into
 * build/compressed/<encoding>/ under the same names: server.js sends those as they are,
 * instead of compressing the same bytes on every request. Only where it makes them smaller.
 * After the server's build, which writes React Router's manifest among them.
 */
function precompressAssets(): Plugin {
  let root = "";
  return {
    name: "studio:precompress-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.config.consumer === "server",
    configResolved(config) {
      root = config.root;
    },
    async closeBundle() {
      const assets = join(root, "build", "client", "assets");
      const compressed = join(root, "build", "compressed");
      await rm(compressed, { recursive: true, force: true });
      const names = (await readdir(assets)).filter((name) => COMPRESSIBLE.test(name));
      const writes = names.map(async (name) => {
        const bytes = await readFile(join(assets, name));
        if (bytes.byteLength < 1024) return;
        for (const [encoding, encode] of Object.entries(encoders)) {
          const smaller = await encode(bytes);
          if (smaller.byteLength >= bytes.byteLength) continue;
          await mkdir(join(compressed, encoding), { recursive: true });
          await writeFile(join(compressed, encoding, name), smaller);
        }
      });
      await Promise.all(writes);
    },
  };
}

/**
 * React Router's package exports name only its development build, whose warnings stay in a
 * production bundle (react-router issue 14102); the browser's build takes the production one,
 * the same code with those warnings compiled out.
 */
const routerProduction = join(
  dirname(createRequire(import.meta.url).resolve("react-router/package.json")),
  "dist",
  "production",
);
const routerProductionBuild = [
  { find: /^react-router$/, replacement: join(routerProduction, "index.mjs") },
  { find: /^react-router\/dom$/, replacement: join(routerProduction, "dom-export.mjs") },
];

/**
 * Every page runs the browser's entry and the root route with all they import statically:
 * one chunk of them compresses better than the dozen small ones rolldown would share with
 * other routes, and is one request on a slow phone (`/` loads 118 KB gzip, not 122.7).
 */
const appShell = { name: "shell", test: /(?:app[\\/]root|[\\/]entry\.client)\.tsx$/ };

export default defineConfig(({ command, isSsrBuild }) => ({
  // The production server (server.js) imports server/app.ts from the SSR build,
  // so the request listener and the routes share one module graph.
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/app.ts" } }
    : {
        rolldownOptions: { output: { codeSplitting: { groups: [appShell] } } },
      },
  resolve: {
    tsconfigPaths: true,
    alias: command === "build" && !isSsrBuild ? routerProductionBuild : [],
  },
  plugins: [tailwindcss(), reactRouter(), precompressAssets()],
}));
