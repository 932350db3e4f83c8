import { defineConfig } from "vitest/config";

/**
 * The unit tests (npm run test:unit): domain rules, models and routes in this process, each
 * file on a fresh SQLite file of its own; no server, no child process. The route tests
 * (npm run test:routes, tests/routes) send requests to the app in this process, as the
 * production server would. The integration tests against the production build have their own
 * config (vitest.integration.config.ts).
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The app in process runs React as production does, and production React has no jsxDEV.
  oxc: { jsx: { development: false } },
  test: {
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts"],
          // Loading the app's packages in a fresh process was most of each file's time; each
          // file still gets its own database and app modules (tests/setup/one-process.ts).
          isolate: false,
          setupFiles: ["tests/setup/env.ts", "tests/setup/one-process.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "routes",
          include: ["tests/routes/**/*.test.ts"],
          // Loading the app's packages in a fresh process was half of each file's time; each file
          // still gets its own settings, database and app modules (tests/setup/one-process.ts).
          isolate: false,
          setupFiles: [
            "tests/setup/env.ts",
            "tests/setup/one-process.ts",
            "tests/setup/app-in-process-env.ts",
          ],
          // The first file of a run transforms the whole app from source.
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
