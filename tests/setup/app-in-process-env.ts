import type pino from "pino";
import { vi } from "vitest";
// Loaded as the server loads it before its first request (server/app.ts).
import "#tests/setup/password-estimator";
import { appLog } from "#tests/setup/app-log";
import { TEST_DATA_ENCRYPTION_KEY } from "#tests/setup/data-key";
import { INTEGRATION_SESSION_SECRET, TEST_SERVER_SETTINGS } from "#tests/setup/server";

// The route tests (tests/routes): the app in this process gets the production server's
// settings (tests/setup/server.ts) before React or any app module loads; a file adds its own
// with appForThisFile().
Object.assign(process.env, {
  NODE_ENV: "production",
  SESSION_SECRET: INTEGRATION_SESSION_SECRET,
  DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
  PAYMENT_PROVIDER: "sandbox",
  ...TEST_SERVER_SETTINGS,
});

// The app's log is kept for the test to read and audit, as the server's is, not printed.
vi.mock("pino", async (importOriginal) => {
  const real = ((await importOriginal()) as { default: typeof pino }).default;
  const logTo = (options: pino.LoggerOptions, destination?: pino.DestinationStream) =>
    real(options, destination ?? appLog);
  return { default: Object.assign(logTo, real) };
});
