import { defineConfig } from "vitest/config";

/**
 * The crash and fault checks (npm run test:reliability): each file starts production servers
 * as child processes and kills, locks, loads or backs them up. One file at a time, because
 * the load check needs both cores to itself and its memory figures mean nothing otherwise.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/reliability/**/*.test.ts"],
    fileParallelism: false,
    maxWorkers: 1,
    // The load check runs RELIABILITY_LOAD_SECONDS (60 by default) plus its setup.
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
