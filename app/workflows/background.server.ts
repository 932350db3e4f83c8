import { type DB, DatabaseBusyError } from "#app/db.server";
import { backfillReceipts } from "#app/workflows/receipts-backfill.server";
import { queueSessionReminders } from "#app/workflows/reminders.server";
import { env } from "#app/env.server";
import { startEmailDelivery } from "#app/workflows/deliver-email.server";
import { openMailTransport } from "#app/adapters.server";
import { sweepSessionFiles } from "#app/workflows/session-files.server";
import { sweepClaims, sweepHolds } from "#app/workflows/sweep.server";
import { logError, logEvent } from "#app/log.server";

const SWEEP_MS = 60_000;

/**
 * The jobs that run beside the requests: cancelling unpaid bookings whose hold ran out (which
 * gives back their coupon use; availability ignores expired holds anyway), queueing the
 * reminders of tomorrow's confirmed sessions, finishing or releasing booking claims left by a
 * cut-off request and closing the checkouts an abandoned plan may have opened (in the order of
 * workflows/sweep.server.ts, which the invariant harness runs too), the session files' sweep
 * (workflows/session-files.server.ts), and delivering the e-mail outbox. Kept
 * on globalThis like the database, so a dev reload does not start a second set. Returns the stop function the graceful shutdown awaits before closing the database.
 */
export function startBackgroundJobs(db: DB): () => Promise<void> {
  const running = globalThis as { __studioJobs?: () => Promise<void> };
  if (running.__studioJobs) return running.__studioJobs;
  // Once, before the first request: payments from before receipts existed get theirs.
  runJob("receipts-backfill", () => backfillReceipts(Date.now()));
  // The claim sweep asks the payment provider: one at a time, never overlapping itself.
  let claims: Promise<unknown> | null = null;
  // The session files' sweep (reminders, expired files, cut-off deletions and uploads) talks
  // to storage: likewise one at a time.
  let files: Promise<unknown> | null = null;
  const sweep = setInterval(() => {
    const now = Date.now();
    runJob("expire-holds", () => sweepHolds(now));
    runJob("session-reminders", () => queueSessionReminders(now, env.APP_URL));
    claims ??= sweepClaims(now)
      .catch((error: unknown) =>
        runJob("settle-claims", () => {
          throw error;
        }),
      )
      .finally(() => {
        claims = null;
      });
    files ??= sweepSessionFiles(now)
      .catch((error: unknown) =>
        runJob("session-files", () => {
          throw error;
        }),
      )
      .finally(() => {
        files = null;
      });
  }, SWEEP_MS);
  sweep.unref();
  const stopEmail = startEmailDelivery({ db, transport: openMailTransport() });
  running.__studioJobs = async () => {
    clearInterval(sweep);
    await claims;
    await files;
    await stopEmail();
  };
  return running.__studioJobs;
}

function runJob(name: string, job: () => unknown) {
  try {
    job();
  } catch (error) {
    // Locked past busy_timeout by another connection: the next sweep does the work.
    if (error instanceof DatabaseBusyError)
      logEvent("database busy, job skipped", { job: name }, "warn");
    else logError(name, error);
  }
}
