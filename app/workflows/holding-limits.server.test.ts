import { Refusal, type UnpaidHoldsRefusal } from "#app/domain/refusal";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { bookings, emailOutbox, orders, waitlistEntries } from "#db/schema";
import { db } from "#app/db.server";
import type { BookingRequest } from "#app/domain/booking-form";
import type { SeriesRepeatRequest } from "#app/domain/series-form";
import type { PublicUser } from "#app/domain/user";
import { bookSeries } from "#app/workflows/book-series.server";
import { type BookingSettings, bookSession } from "#app/workflows/book-session.server";
import { cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import { joinWaitlist, offerFreedRangesNow } from "#app/workflows/waitlist.server";
import {
  SETTINGS as BASE_SETTINGS,
  request as bookingRequest,
  MINUTE,
  makeUser,
  BOOKED_AT as NOW,
  recordSessionPayment,
} from "#tests/setup/workflow-bookings";

/**
 * Holding the calendar (docs/product.md "Availability and holds"): MAX_UNPAID_HOLDS live unpaid
 * bookings per customer, MAX_UNPAID_SESSIONS live unpaid sessions (waitlist offers included),
 * and no session beyond BOOKING_HORIZON_DAYS.
 */
const SETTINGS: BookingSettings = { ...BASE_SETTINGS, maxUnpaidHolds: 2, horizonDays: 365 };

/**
 * Whether the database connection was inside a transaction each time the session cap was
 * counted: the count must be read in the booking's own IMMEDIATE transaction, or two requests
 * could both see room for the last sessions. The models are the real ones, only watched.
 */
const counted = vi.hoisted(() => ({ inTransaction: [] as boolean[] }));
vi.mock("#app/models/booking.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("#app/models/booking.server")>();
  const { db: watched } = await import("#app/db.server");
  return {
    ...real,
    countUnpaidSessions: (...args: Parameters<typeof real.countUnpaidSessions>) => {
      counted.inTransaction.push(watched.$client.inTransaction);
      return real.countUnpaidSessions(...args);
    },
  };
});
vi.mock("#app/models/waitlist.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("#app/models/waitlist.server")>();
  const { db: watched } = await import("#app/db.server");
  return {
    ...real,
    countLiveOffers: (...args: Parameters<typeof real.countLiveOffers>) => {
      counted.inTransaction.push(watched.$client.inTransaction);
      return real.countLiveOffers(...args);
    },
  };
});

let customer: PublicUser;

beforeEach(() => {
  customer = makeUser("holder");
});

/** Each booking on its own day of 2027, so slots never collide. */
let slot = 0;
function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  slot += 1;
  const date = new Date(Date.UTC(2027, 0, 1 + slot)).toISOString().slice(0, 10);
  return bookingRequest({ recordingDate: date, ...overrides });
}

function rowsOf(userId: number) {
  return db.select().from(bookings).where(eq(bookings.userId, userId)).all();
}

function outboxCount() {
  return db.select().from(emailOutbox).all().length;
}

function refusal(run: () => unknown): Refusal {
  try {
    run();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error("expected a Refusal");
}

describe("MAX_UNPAID_HOLDS", () => {
  it("books at N-1 open holds, refuses at N with the open ones, and writes nothing", () => {
    const first = bookSession(customer, request(), NOW, SETTINGS);
    const second = bookSession(customer, request(), NOW, SETTINGS);
    expect([first.status, second.status]).toEqual(["PENDING_PAYMENT", "PENDING_PAYMENT"]);

    const emails = outboxCount();
    const error = refusal(() => bookSession(customer, request(), NOW, SETTINGS));
    expect(error.kind).toBe("unpaid-holds");
    expect(error.message).toContain("pay for or cancel");
    expect((error as UnpaidHoldsRefusal).openHolds.map((hold) => hold.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect(rowsOf(customer.id)).toHaveLength(2);
    expect(outboxCount()).toBe(emails);
  });

  it("does not count a hold that has run out", () => {
    bookSession(customer, request(), NOW, SETTINGS);
    bookSession(customer, request(), NOW + 10 * MINUTE, SETTINGS);
    // 31 minutes on, the first hold ran out: one open hold, so one more fits.
    const later = NOW + 31 * MINUTE;
    expect(bookSession(customer, request(), later, SETTINGS).status).toBe("PENDING_PAYMENT");
    expect(refusal(() => bookSession(customer, request(), later, SETTINGS)).kind).toBe(
      "unpaid-holds",
    );
  });

  it("does not count a paid booking", () => {
    const paid = bookSession(customer, request(), NOW, SETTINGS);
    const outcome = recordSessionPayment(
      {
        bookingId: paid.id,
        amount: paid.totalCost,
        method: "card",
        transactionId: `holds_${paid.id}`,
        details: { brand: "visa", last4: "4242" },
      },
      NOW,
      0,
    );
    expect(outcome).toMatchObject({ ok: true, recorded: "now" });
    bookSession(customer, request(), NOW, SETTINGS);
    expect(bookSession(customer, request(), NOW, SETTINGS).status).toBe("PENDING_PAYMENT");
  });

  it("counts only the customer's own holds", () => {
    bookSession(customer, request(), NOW, SETTINGS);
    bookSession(customer, request(), NOW, SETTINGS);
    const mine = customer;
    const other = makeUser("other");
    expect(bookSession(other, request(), NOW, SETTINGS).userId).toBe(other.id);
    expect(rowsOf(mine.id)).toHaveLength(2);
  });
});

describe("BOOKING_HORIZON_DAYS", () => {
  it("books exactly at the horizon and refuses the day after, writing nothing", () => {
    // Today in the studio is 2026-12-01: the horizon is 2027-12-01.
    const atHorizon = bookSession(customer, request({ recordingDate: "2027-12-01" }), NOW, {
      ...SETTINGS,
      maxUnpaidHolds: 10,
    });
    expect(atHorizon.recordingDate).toBe("2027-12-01");
    const error = refusal(() =>
      bookSession(customer, request({ recordingDate: "2027-12-02" }), NOW, SETTINGS),
    );
    expect(error.kind).toBe("horizon");
    expect(error.message).toBe(
      "Sessions can be booked up to 2027-12-01. Please choose an earlier date.",
    );
    expect(rowsOf(customer.id)).toHaveLength(1);
  });

  it("refuses a reschedule beyond the horizon and leaves the session where it was", () => {
    const booking = bookSession(customer, request(), NOW, SETTINGS);
    recordSessionPayment(
      {
        bookingId: booking.id,
        amount: booking.totalCost,
        method: "card",
        transactionId: `horizon_${booking.id}`,
        details: { brand: "visa", last4: "4242" },
      },
      NOW,
      0,
    );
    const settings = { bufferMinutes: 0, appUrl: "https://studio.test", horizonDays: 365 };
    const move = { bookingId: booking.id, userId: customer.id, recordingTime: "15:00" };
    expect(() =>
      rescheduleOwnBooking({ ...move, recordingDate: "2027-12-02" }, NOW, settings),
    ).toThrow("Sessions can be booked up to 2027-12-01");
    expect(rowsOf(customer.id)[0]?.recordingDate).toBe(booking.recordingDate);
    const moved = rescheduleOwnBooking({ ...move, recordingDate: "2027-12-01" }, NOW, settings);
    expect(moved.recordingDate).toBe("2027-12-01");
  });
});

describe("MAX_UNPAID_SESSIONS", () => {
  const CAP = 12;
  const CAPPED: BookingSettings = { ...SETTINGS, maxUnpaidHolds: 5, maxUnpaidSessions: CAP };
  const weekly = (count: number): SeriesRepeatRequest => ({ every: "week", count, skip: [] });
  /** A weekly series at its own hour, so series of one test never overlap. */
  const seriesAt = (time: string) => request({ recordingTime: time });
  const seriesCount = () => db.select().from(orders).all().length;

  it("refuses a second full series at the cap, whole, naming the counts; nothing written", () => {
    const first = bookSeries(customer, seriesAt("19:00"), weekly(CAP), NOW, CAPPED);
    expect(first.bookings.every((row) => row.status === "PENDING_PAYMENT")).toBe(true);

    const before = { rows: rowsOf(customer.id).length, mail: outboxCount(), series: seriesCount() };
    counted.inTransaction.length = 0;
    const error = refusal(() => bookSeries(customer, seriesAt("06:00"), weekly(CAP), NOW, CAPPED));
    expect(error.kind).toBe("unpaid-holds");
    expect(error.message).toBe(
      "You already have 12 unpaid sessions waiting for payment, and this series would add 12: at most 12 unpaid sessions may be held at once. Please pay for or cancel some of them before booking more.",
    );
    // The open orders to pay or cancel: the series, once, by its first session.
    expect((error as UnpaidHoldsRefusal).openHolds.map((hold) => hold.seriesId)).toEqual([
      first.seriesId,
    ]);
    expect({
      rows: rowsOf(customer.id).length,
      mail: outboxCount(),
      series: seriesCount(),
    }).toEqual(before);
    // Both counts were read inside the booking's transaction.
    expect(counted.inTransaction).toEqual([true, true]);
    // So is a single session at the cap, though MAX_UNPAID_HOLDS (5) has room for it.
    expect(refusal(() => bookSession(customer, request(), NOW, CAPPED)).message).toMatch(
      /^You already have 12 unpaid sessions waiting for payment: at most 12/,
    );
  });

  it("books up to the cap, session by session: cap - 1 held takes one more, then refuses", () => {
    bookSeries(customer, seriesAt("19:00"), weekly(CAP - 2), NOW, CAPPED);
    expect(bookSession(customer, request(), NOW, CAPPED).status).toBe("PENDING_PAYMENT");
    // cap - 1 held: one more reaches the cap.
    expect(bookSession(customer, request(), NOW, CAPPED).status).toBe("PENDING_PAYMENT");
    // At the cap: refused, also a series of 2 (cap + 2).
    expect(refusal(() => bookSession(customer, request(), NOW, CAPPED)).kind).toBe("unpaid-holds");
    expect(
      refusal(() => bookSeries(customer, seriesAt("06:00"), weekly(2), NOW, CAPPED)).kind,
    ).toBe("unpaid-holds");
    expect(rowsOf(customer.id)).toHaveLength(CAP);
  });

  it("refuses a series that would go one past the cap and takes one that reaches it", () => {
    bookSession(customer, request(), NOW, CAPPED);
    const error = refusal(() => bookSeries(customer, seriesAt("19:00"), weekly(CAP), NOW, CAPPED));
    expect(error.message).toContain("You already have 1 unpaid session waiting for payment");
    expect(
      bookSeries(customer, seriesAt("06:00"), weekly(CAP - 1), NOW, CAPPED).bookings,
    ).toHaveLength(CAP - 1);
  });

  it("does not count paid sessions, holds that ran out, or another customer's", () => {
    const paid = bookSession(customer, request(), NOW, CAPPED);
    recordSessionPayment(
      {
        bookingId: paid.id,
        amount: paid.totalCost,
        method: "card",
        transactionId: `sessions_${paid.id}`,
        details: { brand: "visa", last4: "4242" },
      },
      NOW,
      0,
    );
    bookSession(customer, request(), NOW, CAPPED);
    bookSeries(makeUser("other"), seriesAt("19:00"), weekly(CAP), NOW, CAPPED);
    // 31 minutes on, the unpaid one's hold ran out: nothing held, a full series fits.
    const later = NOW + 31 * MINUTE;
    expect(
      bookSeries(customer, seriesAt("06:00"), weekly(CAP), later, CAPPED).bookings,
    ).toHaveLength(CAP);
  });

  /** The customer's live offer of a range another customer held and cancelled. */
  async function liveOffer(): Promise<number> {
    const owner = makeUser("owner");
    const taken = bookSession(owner, request({ recordingTime: "14:00" }), NOW, SETTINGS);
    const waiting = joinWaitlist(
      customer.id,
      { recordingDate: taken.recordingDate, recordingTime: "14:00", hoursNeeded: 2 },
      NOW,
      { holdMinutes: 30, bufferMinutes: 0, appUrl: "https://t.test", maxWaitlist: 5 },
    );
    await cancelOwnBooking({ bookingId: taken.id, userId: owner.id }, NOW);
    offerFreedRangesNow(NOW);
    const entry = db.select().from(waitlistEntries).where(eq(waitlistEntries.id, waiting.id)).get();
    expect(entry?.status).toBe("OFFERED");
    return waiting.id;
  }

  it("counts a live waitlist offer as a held session", async () => {
    await liveOffer();
    bookSeries(customer, seriesAt("19:00"), weekly(CAP - 1), NOW, CAPPED);
    // 11 unpaid sessions and 1 offer: at the cap.
    const error = refusal(() => bookSession(customer, request(), NOW, CAPPED));
    expect(error.message).toBe(
      "You already have 11 unpaid sessions waiting for payment and 1 waitlist offer held for you: at most 12 unpaid sessions may be held at once, waitlist offers included. Please pay for, cancel or remove one of them before booking another session.",
    );
    // Once the offer has run out it no longer counts.
    expect(bookSession(customer, request(), NOW + 30 * MINUTE, CAPPED).status).toBe(
      "PENDING_PAYMENT",
    );
  });

  it("does not count a claimed offer twice: claiming it at the cap books it", async () => {
    const offerId = await liveOffer();
    bookSeries(customer, seriesAt("19:00"), weekly(CAP - 1), NOW, CAPPED);
    const offer = db.select().from(waitlistEntries).where(eq(waitlistEntries.id, offerId)).get();
    const claimed = bookSession(
      customer,
      bookingRequest({ recordingDate: offer?.recordingDate, recordingTime: "14:00" }),
      NOW + MINUTE,
      CAPPED,
      { waitlistEntryId: offerId },
    );
    expect(claimed.status).toBe("PENDING_PAYMENT");
    expect(
      db.select().from(waitlistEntries).where(eq(waitlistEntries.id, offerId)).get(),
    ).toMatchObject({ status: "CLAIMED", bookingId: claimed.id });
    // Now 12 unpaid sessions and no offer: the cap is reached.
    expect(refusal(() => bookSession(customer, request(), NOW + MINUTE, CAPPED)).kind).toBe(
      "unpaid-holds",
    );
  });
});
