import { beforeEach, describe, expect, it } from "vitest";
import { type Booking, users } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import type { BookingClaim } from "#app/domain/booking-claim";
import { studioInstant } from "#app/domain/studio-time";
import {
  type ClaimToken,
  claimBooking,
  listStaleClaims,
  releaseClaim,
} from "#app/models/booking-claim.server";
import { getActiveRetainer, getBooking, hasConflict } from "#app/models/booking.server";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";
import { cancelProblem, studioCancelProblem } from "#app/models/cancellation.server";
import { isPayable, notPayableMessage } from "#app/domain/payments";
import { applyPayment } from "#app/workflows/apply-payment.server";
import { toPublicUser } from "#app/models/user.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import { sweepExpiredHolds } from "#app/workflows/expire-holds.server";

/**
 * Claimed bookings count as taken everywhere: availability, holds running out, retainer hours,
 * payability, cancelling, rescheduling. Against a real, freshly migrated SQLite file.
 */
const SETTINGS: BookingSettings = { holdMinutes: 30, bufferMinutes: 0, appUrl: "https://t.test" };
const NOW = studioInstant("2026-12-01", "09:00");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const CANCELLING = "This booking is being cancelled right now. Please reload the page in a moment.";

let customer: ReturnType<typeof toPublicUser>;
let counter = 0;

beforeEach(() => {
  counter += 1;
  const row = db
    .insert(users)
    .values({
      username: `claimer_${counter}`,
      passwordHash: "x",
      firstName: "Cla",
      lastName: "Im",
      phoneNumber: "404-555-0100",
      email: `claimer${counter}@example.com`,
    })
    .returning()
    .get();
  customer = toPublicUser(row);
});

/** A unique date per test, so slots never collide across tests sharing the file. */
function day(offset = 0) {
  const base = Date.UTC(2026, 11, 10) + (counter * 3 + offset) * DAY;
  return new Date(base).toISOString().slice(0, 10);
}

function book(overrides: Partial<BookingRequest> = {}, now = NOW): Booking {
  return bookSession(
    customer,
    {
      firstName: "Cla",
      lastName: "Im",
      phoneNumber: "404-555-0100",
      email: "claimer@example.com",
      stakeholder: "no",
      recordingDate: day(),
      recordingTime: "10:00",
      guestCount: 1,
      hoursNeeded: 2,
      isRetainer: false,
      selectedServices: [],
      ...overrides,
    },
    now,
    SETTINGS,
  );
}

function pay(booking: Booking): Booking {
  const result = writeTransaction((tx) =>
    applyPayment(
      tx,
      {
        bookingId: booking.id,
        amount: booking.totalCost,
        method: "card",
        transactionId: `charge_${booking.id}`,
        details: { brand: "visa", last4: "4242" },
      },
      NOW,
      0,
      { refuseClaimed: true },
    ),
  );
  if (!result.ok || result.recorded !== "now")
    throw new Error(`not paid: ${JSON.stringify(result)}`);
  return result.booking;
}

function claim(booking: Booking, what: BookingClaim, at = NOW): ClaimToken {
  const token = writeTransaction((tx) => claimBooking(tx, booking.id, what, at, customer.id));
  if (!token) throw new Error("not claimed");
  return token;
}

const reload = (booking: Booking) => getBooking(db, booking.id) ?? booking;

describe("taking and releasing a claim", () => {
  it("lets one action hold a booking at a time, and only its holder release it", () => {
    const booking = book();
    const token = claim(booking, "CANCEL_BY_CUSTOMER");
    expect(reload(booking)).toMatchObject({
      claim: "CANCEL_BY_CUSTOMER",
      claimedAt: NOW,
      claimedBy: customer.id,
    });
    expect(writeTransaction((tx) => claimBooking(tx, booking.id, "CHECKOUT_OPEN", NOW, null))).toBe(
      null,
    );
    // An old token (a claim the sweeper already released and someone took again) is refused.
    const stale = { ...token, claimedAt: NOW - MINUTE };
    expect(writeTransaction((tx) => releaseClaim(tx, stale))).toBe(false);
    expect(reload(booking).claim).toBe("CANCEL_BY_CUSTOMER");
    expect(writeTransaction((tx) => releaseClaim(tx, token))).toBe(true);
    expect(reload(booking)).toMatchObject({ claim: null, claimedAt: null, claimedBy: null });
  });

  it("lists for the sweeper only the claims taken before the cut-off", () => {
    const old = book();
    const fresh = book({ recordingDate: day(1) });
    claim(old, "CHECKOUT_OPEN", NOW - 20 * MINUTE);
    claim(fresh, "CHECKOUT_OPEN", NOW - MINUTE);
    const ids = listStaleClaims(NOW - 10 * MINUTE).map((row) => row.id);
    expect(ids).toContain(old.id);
    expect(ids).not.toContain(fresh.id);
  });
});

describe("a claimed booking counts as taken", () => {
  it("keeps its slot past its hold, and is not expired, until the claim is released", () => {
    const held = book();
    const token = claim(held, "CANCEL_BY_CUSTOMER");
    const afterHold = NOW + 31 * MINUTE;
    const slot = { date: day(), time: "10:00", hours: 2 };
    expect(hasConflict(slot, afterHold, 0)).toBe(true);
    sweepExpiredHolds(afterHold);
    expect(reload(held).status).toBe("PENDING_PAYMENT");

    writeTransaction((tx) => releaseClaim(tx, token));
    expect(hasConflict(slot, afterHold, 0)).toBe(false);
    sweepExpiredHolds(afterHold);
    expect(reload(held).status).toBe("CANCELLED");
  });

  it("offers no retainer hours while the retainer is claimed", () => {
    const retainer = pay(book({ isRetainer: true, hoursNeeded: 2 }));
    expect(getActiveRetainer(customer.id, NOW)).toMatchObject({ bookingId: retainer.id });
    const token = claim(retainer, "CANCEL_BY_CUSTOMER");
    expect(getActiveRetainer(customer.id, NOW)).toBeNull();
    const meanwhile = book({ recordingDate: day(1), hoursNeeded: 3 });
    expect(meanwhile).toMatchObject({ retainerHoursDrawn: 0, totalCost: 600 });

    writeTransaction((tx) => releaseClaim(tx, token));
    expect(getActiveRetainer(customer.id, NOW)).toMatchObject({ bookingId: retainer.id });
  });

  it("cannot be paid by card while another action holds it; a checkout being opened can", () => {
    const booking = book();
    const token = claim(booking, "CANCEL_BY_STUDIO");
    expect(isPayable(reload(booking), NOW)).toBe(false);
    expect(notPayableMessage(reload(booking), NOW)).toBe(CANCELLING);
    expect(() => pay(booking)).toThrow(/"ok":false/);
    writeTransaction((tx) => releaseClaim(tx, token));

    claim(booking, "CHECKOUT_OPEN");
    expect(isPayable(reload(booking), NOW)).toBe(true);
  });

  it("cannot be cancelled again, by the customer or by staff", () => {
    const booking = pay(book());
    claim(booking, "CANCEL_BY_CUSTOMER");
    expect(cancelProblem(db, reload(booking), NOW)).toBe(CANCELLING);
    expect(studioCancelProblem(db, reload(booking))).toBe(CANCELLING);
  });

  it("cannot be rescheduled while it is being cancelled", () => {
    const booking = pay(book());
    const token = claim(booking, "CANCEL_BY_CUSTOMER");
    const move = () =>
      rescheduleOwnBooking(
        {
          bookingId: booking.id,
          userId: customer.id,
          recordingDate: day(1),
          recordingTime: "10:00",
        },
        NOW,
        { bufferMinutes: 0, appUrl: "https://t.test" },
      );
    expect(move).toThrow(CANCELLING);
    expect(reload(booking).recordingDate).toBe(day());
    writeTransaction((tx) => releaseClaim(tx, token));
    expect(move().recordingDate).toBe(day(1));
  });
});

describe("money taken while a booking is claimed", () => {
  it("is still recorded when a hosted checkout took it (never lose track of money)", () => {
    const booking = book();
    claim(booking, "CANCEL_BY_CUSTOMER");
    const result = writeTransaction((tx) =>
      applyPayment(
        tx,
        {
          bookingId: booking.id,
          amount: booking.totalCost,
          method: "card",
          transactionId: `pi_${booking.id}`,
          details: { brand: "visa", last4: "4242" },
        },
        NOW,
        0,
        { refuseClaimed: false },
      ),
    );
    expect(result).toMatchObject({ ok: true, recorded: "now" });
    // The claim stays with its holder, which sees the payment when it records.
    expect(reload(booking)).toMatchObject({ status: "PENDING", claim: "CANCEL_BY_CUSTOMER" });
  });
});
