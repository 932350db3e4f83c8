import { defineConfig } from "vitest/config";

/**
 * The unit tests (npm run test:unit): domain rules, models and routes in this process, each
 * file on a fresh SQLite file of its own; no server, no child process. The integration tests
 * against the production build have their own config (vitest.integration.config.ts).
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.ts"],
    setupFiles: ["tests/setup/env.ts"],
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
