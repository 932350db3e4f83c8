import { defineConfig } from "vitest/config";

/**
 * The integration tests (npm run test:integration): each file starts the production build
 * (`npm run build` first) as a child process on its own SQLite file and talks to it over HTTP,
 * writing its data into that file through tests/factories.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/integration/**/*.test.ts"],
    // After env.ts (the route modules the contract check reads open the database on import).
    setupFiles: ["tests/setup/env.ts", "tests/setup/contract-check.ts"],
    // Reads every server's log once all files ran: no secret, no line that is not JSON.
    globalSetup: ["tests/setup/log-audit.ts"],
    // Each file starts a production server; two cores, so keep it modest.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
