import { afterEach, describe, expect, it } from "vitest";
import { emailOutbox } from "#db/schema";
import { db } from "#app/db.server";
import { databaseWriteProblem, migrationProblem, outboxProblem } from "#app/models/health.server";
import { createOutboxEmail } from "#tests/factories/support";

/** Readiness as the database answers it (docs/deploy.md "What the configuration does"). */
const NOW = Date.UTC(2027, 0, 4, 12);
const MINUTE = 60_000;
const STUCK_AFTER = 15 * MINUTE;

afterEach(() => {
  db.delete(emailOutbox).run();
});

describe("readiness", () => {
  it("finds the test database writable and at the head of the migrations", () => {
    expect(databaseWriteProblem()).toBeNull();
    expect(migrationProblem()).toBeNull();
  });

  it("calls the outbox stuck only when an e-mail has been due for the whole limit", () => {
    expect(outboxProblem(NOW, STUCK_AFTER)).toBeNull();
    // Waiting for a later retry, sent, failed for good, or due a moment too recently: moving.
    createOutboxEmail(db, { nextAttemptAt: NOW + 10 * MINUTE });
    createOutboxEmail(db, { status: "SENT", nextAttemptAt: NOW - 60 * MINUTE });
    createOutboxEmail(db, { status: "FAILED", nextAttemptAt: NOW - 60 * MINUTE });
    createOutboxEmail(db, { nextAttemptAt: NOW - STUCK_AFTER + 1 });
    expect(outboxProblem(NOW, STUCK_AFTER)).toBeNull();

    createOutboxEmail(db, { nextAttemptAt: NOW - STUCK_AFTER - 2 * MINUTE });
    expect(outboxProblem(NOW, STUCK_AFTER)).toBe("an e-mail due 17 minutes ago is still waiting");
  });
});
