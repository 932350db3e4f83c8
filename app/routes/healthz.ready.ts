import { mailIsDelivered } from "#app/adapters.server";
import { logError, logger } from "#app/log.server";
import { databaseProblem, migrationProblem, outboxProblem } from "#app/models/health.server";
import { methodNotAllowed } from "#app/web/api.server";

/** Delivery runs every few seconds and leases an e-mail for 5 minutes: 15 is long past both. */
const OUTBOX_STUCK_AFTER_MS = 15 * 60_000;

/**
 * Readiness, for fly.toml's `[checks.ready]` and operators: 200 when the database is read and
 * takes writes, has every migration of this build and the outbox is moving (when SMTP is set
 * up; without it e-mails wait for admins by design); else 503. The public learns only which of
 * the two: what is wrong goes to the log (a raw error names files and settings).
 * `/healthz` stays the liveness check that routing uses: a stalled outbox must not take the
 * booking site offline.
 */
export function loader() {
  const now = Date.now();
  const checks = {
    database: safely("database", () => databaseProblem(now)),
    migrations: safely("migrations", migrationProblem),
    outbox: mailIsDelivered()
      ? safely("outbox", () => outboxProblem(now, OUTBOX_STUCK_AFTER_MS))
      : null,
  };
  const ready = Object.values(checks).every((problem) => problem === null);
  if (!ready) {
    const problems = Object.fromEntries(
      Object.entries(checks).map(([name, problem]) => [name, problem ?? "ok"]),
    );
    logger.warn({ checks: problems }, "readiness: not ready");
  }
  return Response.json(
    { status: ready ? "ready" : "unavailable" },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

function safely(name: string, check: () => string | null): string | null {
  try {
    return check();
  } catch (error) {
    logError(`readiness: ${name}`, error);
    return "check failed";
  }
}

export function action() {
  return methodNotAllowed("GET");
}
