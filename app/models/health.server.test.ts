import { afterEach, describe, expect, it, vi } from "vitest";
import { emailOutbox } from "#db/schema";
import { db } from "#app/db.server";
import {
  databaseProblem,
  migrationProblem,
  outboxProblem,
  WRITE_CHECK_EVERY_MS,
} from "#app/models/health.server";
import { createOutboxEmail } from "#tests/factories/support";

/** Readiness as the database answers it (docs/deploy.md "What the configuration does"). */
const NOW = Date.UTC(2027, 0, 4, 12);
const MINUTE = 60_000;
const STUCK_AFTER = 15 * MINUTE;

afterEach(() => {
  db.delete(emailOutbox).run();
  vi.restoreAllMocks();
});

/** How often the write lock was asked for (BEGIN IMMEDIATE) while `run` ran. */
function writeLocksDuring(run: () => void): number {
  const exec = vi.spyOn(db.$client, "exec");
  run();
  const taken = exec.mock.calls.filter(([statement]) => statement === "BEGIN IMMEDIATE").length;
  exec.mockRestore();
  return taken;
}

describe("readiness", () => {
  it("finds the test database readable, writable and at the head of the migrations", () => {
    expect(databaseProblem(NOW)).toBeNull();
    expect(migrationProblem()).toBeNull();
  });

  it("takes the write lock at most once a minute, however often it is asked", () => {
    const start = NOW + 10 * WRITE_CHECK_EVERY_MS;
    const asked = (at: number, times: number) =>
      writeLocksDuring(() => {
        for (let call = 0; call < times; call += 1) expect(databaseProblem(at)).toBeNull();
      });
    expect(asked(start, 100)).toBe(1);
    expect(asked(start + WRITE_CHECK_EVERY_MS - 1, 100)).toBe(0);
    expect(asked(start + WRITE_CHECK_EVERY_MS, 100)).toBe(1);
  });

  it("reports a failed write probe until the next one, which clears it", () => {
    const start = NOW + 20 * WRITE_CHECK_EVERY_MS;
    const exec = db.$client.exec.bind(db.$client);
    vi.spyOn(db.$client, "exec").mockImplementationOnce(() => {
      throw new Error("attempt to write a readonly database");
    });
    expect(databaseProblem(start)).toBe("not writable: attempt to write a readonly database");
    expect(databaseProblem(start + 1000)).toBe(
      "not writable: attempt to write a readonly database",
    );
    vi.mocked(db.$client.exec).mockImplementation(exec);
    expect(databaseProblem(start + WRITE_CHECK_EVERY_MS)).toBeNull();
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
