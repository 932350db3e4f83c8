import { beforeEach, describe, expect, it } from "vitest";
import { blockedTimes } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import { blockedTimeSchema } from "#app/domain/blocked-times";
import { studioInstant } from "#app/domain/studio-time";
import {
  createBlockedTime,
  listBlockedTimesPage,
  removeBlockedTime,
} from "#app/models/blocked-time.server";
import { getAvailability, hasConflict } from "#app/models/booking.server";
import { getEmail, listEmailsPage, retryEmail } from "#app/models/email.server";
import { createBooking } from "#tests/factories/booking";
import { createOutboxEmail } from "#tests/factories/support";
import { createUser, type FactoryUser } from "#tests/factories/user";

/**
 * The admin's blocked-time and e-mail tools against a real, freshly migrated SQLite file: a
 * block that availability and the conflict check respect at once, and the outbox as staff
 * read and retry it. (Working a support request is tested beside workflows/support; that the
 * booking workflow refuses a blocked slot, beside workflows/book-session.)
 */
const NOW = studioInstant("2027-01-04", "09:00");
const HOLD_MS = 30 * 60_000;

let customer: FactoryUser;

beforeEach(async () => {
  customer = await createUser(db);
});

/** An unpaid booking whose hold is still running at NOW, as the booking form leaves it. */
function booking(
  date: string,
  time: string,
  status: "PENDING_PAYMENT" | "CANCELLED" = "PENDING_PAYMENT",
) {
  return createBooking(db, {
    user: customer,
    date,
    time,
    status,
    holdExpiresAt: status === "PENDING_PAYMENT" ? NOW + HOLD_MS : null,
  });
}

const block = (startDate: string, startTime: string, endDate: string, endTime: string) =>
  blockedTimeSchema(NOW).parse({ startDate, startTime, endDate, endTime, reason: "Maintenance" });

describe("blocked times", () => {
  it("make the conflict check and availability refuse the slot, and removing frees it", () => {
    const date = "2027-02-10";
    const slot = { date, time: "10:00", hours: 2 };
    expect(hasConflict(slot, NOW, 0)).toBe(false);

    const { block: created, overlapping } = writeTransaction((tx) =>
      createBlockedTime(tx, block(date, "11:00", date, "12:30"), customer.id, NOW),
    );
    expect(overlapping).toEqual([]);
    expect(hasConflict(slot, NOW, 0)).toBe(true);
    const times = getAvailability(date, 2, NOW, 0);
    const at = (time: string) => times.find((option) => option.time === time);
    // 10:00-12:00 and 11:00-13:00 and 12:00-14:00 touch the block; 09:00-11:00 and 13:00 do not.
    for (const time of ["10:00", "11:00", "12:00"]) {
      expect(at(time)).toMatchObject({ available: false, reason: "taken" });
    }
    for (const time of ["09:00", "13:00"]) expect(at(time)).toMatchObject({ available: true });

    expect(writeTransaction((tx) => removeBlockedTime(tx, created.id))).toBe(true);
    expect(writeTransaction((tx) => removeBlockedTime(tx, created.id))).toBe(false);
    expect(hasConflict(slot, NOW, 0)).toBe(false);
    expect(getAvailability(date, 2, NOW, 0).find((o) => o.time === "10:00")?.available).toBe(true);
  });

  it("a block over several days closes each of them, buffer or not", () => {
    const { block: created } = writeTransaction((tx) =>
      createBlockedTime(tx, block("2027-02-20", "18:00", "2027-02-22", "08:00"), customer.id, NOW),
    );
    expect(hasConflict({ date: "2027-02-21", time: "12:00", hours: 2 }, NOW, 0)).toBe(true);
    expect(hasConflict({ date: "2027-02-20", time: "16:00", hours: 2 }, NOW, 0)).toBe(false);
    expect(hasConflict({ date: "2027-02-20", time: "16:00", hours: 2 }, NOW, 30)).toBe(false);
    expect(hasConflict({ date: "2027-02-22", time: "08:00", hours: 2 }, NOW, 30)).toBe(false);
    writeTransaction((tx) => removeBlockedTime(tx, created.id));
  });

  it("is created over live bookings and names them; cancelled ones and other days are left out", () => {
    const date = "2027-03-03";
    const kept = booking(date, "10:00");
    const cancelled = booking(date, "14:00", "CANCELLED");
    const elsewhere = booking("2027-03-04", "10:00");
    const { overlapping } = writeTransaction((tx) =>
      createBlockedTime(tx, block(date, "00:00", date, "23:59"), customer.id, NOW),
    );
    expect(overlapping.map((session) => session.id)).toEqual([kept.id]);
    expect(overlapping.map((session) => session.id)).not.toContain(cancelled.id);
    expect(overlapping.map((session) => session.id)).not.toContain(elsewhere.id);
    expect(overlapping[0]).toMatchObject({ firstName: customer.firstName, email: customer.email });
  });

  it("lists upcoming blocks soonest first and past ones apart", () => {
    const later = writeTransaction((tx) =>
      createBlockedTime(tx, block("2027-05-02", "09:00", "2027-05-02", "10:00"), customer.id, NOW),
    );
    const sooner = writeTransaction((tx) =>
      createBlockedTime(tx, block("2027-05-01", "09:00", "2027-05-01", "10:00"), customer.id, NOW),
    );
    const upcoming = listBlockedTimesPage("upcoming", 1, NOW).rows.map((row) => row.id);
    expect(upcoming.indexOf(sooner.block.id)).toBeLessThan(upcoming.indexOf(later.block.id));
    const afterwards = studioInstant("2027-05-01", "12:00");
    const past = listBlockedTimesPage("past", 1, afterwards).rows.map((row) => row.id);
    expect(past).toContain(sooner.block.id);
    expect(past).not.toContain(later.block.id);
    expect(listBlockedTimesPage("upcoming", 1, afterwards).rows.map((r) => r.id)).not.toContain(
      sooner.block.id,
    );
    db.delete(blockedTimes).run();
  });
});

describe("the outbox as staff read it", () => {
  it("lists newest first by status and retries only a FAILED e-mail", () => {
    const insert = (status: "PENDING" | "SENT" | "FAILED") =>
      createOutboxEmail(db, {
        toAddress: "ops@example.com",
        subject: `A ${status} e-mail`,
        status,
        attempts: status === "FAILED" ? 10 : 0,
        lastError: status === "FAILED" ? "Error [ECONNREFUSED]: down" : null,
      });
    const failed = insert("FAILED");
    const sent = insert("SENT");

    const all = listEmailsPage({ status: null }, 1).rows.map((row) => row.id);
    expect(all.indexOf(sent.id)).toBeLessThan(all.indexOf(failed.id));
    const onlyFailed = listEmailsPage({ status: "FAILED" }, 1).rows;
    expect(onlyFailed.map((row) => row.id)).toContain(failed.id);
    expect(onlyFailed.every((row) => row.status === "FAILED")).toBe(true);
    expect(onlyFailed[0]).not.toHaveProperty("html");

    expect(writeTransaction((tx) => retryEmail(tx, sent.id, NOW))).toBe(false);
    expect(getEmail(sent.id)?.status).toBe("SENT");
    expect(writeTransaction((tx) => retryEmail(tx, failed.id, NOW))).toBe(true);
    expect(getEmail(failed.id)).toMatchObject({
      status: "PENDING",
      attempts: 0,
      nextAttemptAt: NOW,
    });
    expect(writeTransaction((tx) => retryEmail(tx, failed.id, NOW))).toBe(false);
  });

  it("re-addresses a failed booking e-mail to the account's own address, and leaves others as they were", () => {
    // A row from before booking mail went to the account: addressed to what the form said.
    const typed = createOutboxEmail(db, {
      toAddress: "someone-else@example.net",
      bookingId: booking("2027-01-20", "10:00").id,
      status: "FAILED",
      attempts: 10,
    });
    const unlinked = createOutboxEmail(db, {
      toAddress: "ops@example.com",
      status: "FAILED",
      attempts: 10,
    });

    expect(writeTransaction((tx) => retryEmail(tx, typed.id, NOW))).toBe(true);
    expect(writeTransaction((tx) => retryEmail(tx, unlinked.id, NOW))).toBe(true);

    expect(getEmail(typed.id)?.toAddress).toBe(customer.email);
    expect(getEmail(unlinked.id)?.toAddress).toBe("ops@example.com");
  });
});
