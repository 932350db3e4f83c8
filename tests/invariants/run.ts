import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";

/**
 * `npm run test:invariants [-- --runs N --seed S --path P --replay-path R --only a,b --max-commands M]`
 *
 * Model-based test of the money and calendar invariants (docs/product.md "Orders"):
 * fast-check generates random histories of customers booking, paying, cancelling, waiting and
 * staff acting, with a fake payment provider that is slow, fails, times out and sends its
 * webhooks late, twice or out of order; after every step every invariant is checked against
 * the database and the provider's ledger. A failure prints the invariant, the shrunk history
 * and the command replaying it.
 */
const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "200" },
    seed: { type: "string" },
    path: { type: "string" },
    "replay-path": { type: "string" },
    only: { type: "string" },
    "max-commands": { type: "string", default: "60" },
    list: { type: "boolean", default: false },
    stats: { type: "boolean", default: false },
  },
});

// The app reads its settings and opens its database when first imported: set them first.
const dir = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
const databasePath = join(dir, `studio-invariants-${process.pid}.db`);
process.env.DATABASE_PATH = databasePath;
process.env.FILES_DIR = `${databasePath}.files`;
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL = "silent";
process.env.PAYMENT_PROVIDER = "sandbox";
process.env.HOLD_MINUTES = "30";
process.env.BUFFER_MINUTES = "30";
process.env.MAX_UNPAID_HOLDS = "2";
process.env.MAX_UNPAID_SESSIONS = "12";
process.env.MAX_WAITLIST = "5";
process.env.CANCELLATION_FEE_PERCENT = "50";
process.env.BOOKING_HORIZON_DAYS = "365";
process.env.APP_URL = "https://studio.invariants.test";
for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_URL", "SMTP_URL"]) {
  delete process.env[name];
}

const { runHarness } = await import("#tests/invariants/harness");
const code = await runHarness({
  runs: Number(args.runs),
  seed: args.seed === undefined ? undefined : Number(args.seed),
  path: args.path,
  replayPath: args["replay-path"],
  only: args.only ? args.only.split(",").map((name) => name.trim()) : null,
  maxCommands: Number(args["max-commands"]),
  list: args.list ?? false,
  stats: args.stats ?? false,
  started: performance.now(),
});
for (const suffix of ["", "-wal", "-shm"]) rmSync(`${databasePath}${suffix}`, { force: true });
rmSync(`${databasePath}.files`, { recursive: true, force: true });
process.exit(code);
