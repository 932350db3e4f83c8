import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bookings, emailOutbox, waitlistEntries } from "#db/schema";
import { db, writeTransaction } from "#app/db.server";
import type { PublicUser } from "#app/domain/user";
import { studioInstant } from "#app/domain/studio-time";
import { WAITLIST_MESSAGES } from "#app/domain/waitlist";
import { createBlockedTime, removeBlockedTime } from "#app/models/blocked-time.server";
import { getAvailability } from "#app/models/booking.server";
import { bookSession } from "#app/workflows/book-session.server";
import { Refusal } from "#app/domain/refusal";
import { cancelForStudio, cancelOwnBooking } from "#app/workflows/cancel-booking.server";
import { changeBookingStatus } from "#app/workflows/change-booking-status.server";
import { rescheduleOwnBooking } from "#app/workflows/reschedule.server";
import {
  joinWaitlist,
  offerFreedRanges,
  offerFreedRangesNow,
  removeWaitlistEntry,
  type WaitlistSettings,
} from "#app/workflows/waitlist.server";
import {
  BOOKED_AT,
  DAY,
  day,
  HOUR,
  MINUTE,
  makeUser,
  paidBooking,
  request,
  SETTINGS,
} from "#tests/setup/workflow-bookings";

/**
 * The waitlist (docs/product.md "Waitlist") against a real, freshly migrated SQLite file:
 * joining, each path that frees a range making an offer, lapse and pass-on, offers busy for
 * others, and claiming through bookSession. (The claim race over HTTP is in
 * tests/integration/waitlist.test.ts.)
 */
const WAIT: WaitlistSettings = {
  holdMinutes: 30,
  bufferMinutes: 0,
  appUrl: "https://t.test",
  maxWaitlist: 3,
};
const NOW = BOOKED_AT;

let owner: PublicUser;
let waiter: PublicUser;
let second: PublicUser;

beforeEach(() => {
  owner = makeUser("owner");
  waiter = makeUser("waiter");
  second = makeUser("second");
});

const range = (overrides: Partial<{ recordingDate: string; recordingTime: string }> = {}) => ({
  recordingDate: day(),
  recordingTime: "10:00",
  hoursNeeded: 2,
  ...overrides,
});

function entry(id: number) {
  const row = db.select().from(waitlistEntries).where(eq(waitlistEntries.id, id)).get();
  if (!row) throw new Error(`No entry ${id}`);
  return row;
}

function offerMails(to: string) {
  return db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.kind, "waitlist-offer"), eq(emailOutbox.toAddress, to)))
    .all();
}

/** The owner's unpaid booking of the range, and the waiter waiting for it. */
function takenAndWaited(at = NOW) {
  const booking = bookSession(owner, request(), at, SETTINGS);
  const waiting = joinWaitlist(waiter.id, range(), at, WAIT);
  return { booking, waiting };
}

describe("joining", () => {
  it("waits for a taken range", () => {
    const { waiting } = takenAndWaited();
    expect(waiting).toMatchObject({ status: "WAITING", userId: waiter.id, hoursNeeded: 2 });
    expect(waiting.startsAt).toBe(studioInstant(day(), "10:00"));
  });

  it("refuses a free range, a duplicate, too many, too soon and past the horizon; writes nothing", () => {
    const before = db.select().from(waitlistEntries).all().length;
    const refused = (kind: string, run: () => unknown) => {
      expect(run).toThrowError(Refusal);
      try {
        run();
      } catch (error) {
        expect((error as Refusal).kind).toBe(kind);
      }
    };
    refused("range-free", () => joinWaitlist(waiter.id, range(), NOW, WAIT));
    bookSession(owner, request(), NOW, SETTINGS);
    joinWaitlist(waiter.id, range(), NOW, WAIT);
    refused("already-waiting", () => joinWaitlist(waiter.id, range(), NOW, WAIT));
    // A range overlapping the booking is taken too: it may be waited for.
    joinWaitlist(waiter.id, range({ recordingTime: "11:00" }), NOW, WAIT);
    joinWaitlist(waiter.id, range({ recordingTime: "09:00" }), NOW, WAIT);
    refused("waitlist-full", () =>
      joinWaitlist(waiter.id, { ...range({ recordingTime: "08:00" }), hoursNeeded: 3 }, NOW, WAIT),
    );
    const soon = bookSession(owner, request({ recordingDate: day(2) }), NOW, SETTINGS);
    refused("start-refused", () =>
      joinWaitlist(second.id, range({ recordingDate: day(2) }), soon.startsAt - HOUR, WAIT),
    );
    refused("horizon", () =>
      joinWaitlist(second.id, range({ recordingDate: day(2) }), NOW, { ...WAIT, horizonDays: 1 }),
    );
    expect(db.select().from(waitlistEntries).all().length).toBe(before + 3);
  });

  it("refuses a range the customer's own live booking takes, paid or not; writes nothing", () => {
    const count = () => db.select().from(waitlistEntries).all().length;
    const before = count();
    const refusedOwn = (userId: number, wanted: ReturnType<typeof range>, at = NOW) => {
      let error: unknown;
      try {
        joinWaitlist(userId, wanted, at, WAIT);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(Refusal);
      expect(error).toMatchObject({
        kind: "own-booking",
        message: "You already have a session booked at this time.",
      });
    };
    // Unpaid with a live hold: the same range, and one that overlaps it.
    bookSession(owner, request(), NOW, SETTINGS);
    refusedOwn(owner.id, range());
    refusedOwn(owner.id, range({ recordingTime: "11:00" }));
    // Paid (confirmed) too.
    paidBooking(owner, { recordingDate: day(1) });
    refusedOwn(owner.id, range({ recordingDate: day(1) }), NOW + 2 * MINUTE);
    expect(count()).toBe(before);
    // Another customer may wait for it; the owner may wait for a range next to theirs that
    // someone else took.
    expect(joinWaitlist(waiter.id, range(), NOW, WAIT).status).toBe("WAITING");
    bookSession(second, request({ recordingTime: "12:00" }), NOW, SETTINGS);
    expect(joinWaitlist(owner.id, range({ recordingTime: "12:00" }), NOW, WAIT).status).toBe(
      "WAITING",
    );
  });

  it("counts only open entries against MAX_WAITLIST", () => {
    bookSession(owner, request(), NOW, SETTINGS);
    const one = joinWaitlist(waiter.id, range(), NOW, { ...WAIT, maxWaitlist: 1 });
    removeWaitlistEntry(waiter.id, one.id, NOW, WAIT);
    const again = joinWaitlist(waiter.id, range(), NOW, { ...WAIT, maxWaitlist: 1 });
    expect(again.status).toBe("WAITING");
  });

  it("lets only the owner remove an entry", () => {
    const { waiting } = takenAndWaited();
    expect(() => removeWaitlistEntry(second.id, waiting.id, NOW, WAIT)).toThrowError(
      WAITLIST_MESSAGES.notFound,
    );
    expect(entry(waiting.id).status).toBe("WAITING");
    expect(removeWaitlistEntry(waiter.id, waiting.id, NOW, WAIT).status).toBe("REMOVED");
    expect(() => removeWaitlistEntry(waiter.id, waiting.id, NOW, WAIT)).toThrowError(
      WAITLIST_MESSAGES.notFound,
    );
  });
});

describe("offers on each path that frees a range", () => {
  it("a customer's cancellation offers the range at once, with its e-mail", async () => {
    const { booking, waiting } = takenAndWaited();
    const at = NOW + MINUTE;
    await cancelOwnBooking({ bookingId: booking.id, userId: owner.id }, at);
    const offered = entry(waiting.id);
    expect(offered.status).toBe("OFFERED");
    expect(offered.offeredAt).toBe(at);
    expect(offered.offerExpiresAt).toBeGreaterThan(at);
    const [mail] = offerMails(waiter.email);
    expect(mail?.subject).toBe("The studio time you waited for is free: it is held for you");
    expect(mail?.text).toContain(`/?claim=${waiting.id}#booking-form`);
  });

  it("a staff cancellation offers it", async () => {
    const { booking, waiting } = takenAndWaited();
    const admin = makeUser("admin", { isAdmin: true });
    await cancelForStudio({ bookingId: booking.id, actorUserId: admin.id }, NOW + MINUTE);
    expect(entry(waiting.id).status).toBe("OFFERED");
  });

  it("staff changing a booking's status to Cancelled (the admin pages' and API's path) offers it at once", async () => {
    // Staff have no move to another time: of their status changes only Cancelled frees the
    // range (docs/product.md "Waitlist"), and it goes through cancelForStudio's offer.
    const { booking, waiting } = takenAndWaited();
    const admin = makeUser("admin", { isAdmin: true });
    await changeBookingStatus(booking.id, "CANCELLED", { id: admin.id }, null, NOW + MINUTE);
    expect(entry(waiting.id).status).toBe("OFFERED");
    expect(offerMails(waiter.email)).toHaveLength(1);
  });

  it("an expired hold frees it for the next sweep", () => {
    const { waiting } = takenAndWaited();
    expect(offerFreedRangesNow(NOW + 10 * MINUTE, WAIT)).toBe(0);
    expect(entry(waiting.id).status).toBe("WAITING");
    const after = NOW + 31 * MINUTE;
    expect(writeTransaction((tx) => offerFreedRanges(tx, after, WAIT))).toBeGreaterThanOrEqual(1);
    expect(entry(waiting.id)).toMatchObject({
      status: "OFFERED",
      offerExpiresAt: after + 30 * MINUTE,
    });
  });

  it("a reschedule moving away offers the range it left", () => {
    const booking = bookSession(
      owner,
      request({ recordingDate: day(), isRetainer: false }),
      NOW,
      SETTINGS,
    );
    db.update(bookings)
      .set({ status: "CONFIRMED", holdExpiresAt: null })
      .where(eq(bookings.id, booking.id))
      .run();
    const waiting = joinWaitlist(waiter.id, range(), NOW, WAIT);
    rescheduleOwnBooking(
      { bookingId: booking.id, userId: owner.id, recordingDate: day(1), recordingTime: "10:00" },
      NOW + MINUTE,
      { bufferMinutes: 0, appUrl: "https://t.test" },
    );
    expect(entry(waiting.id).status).toBe("OFFERED");
  });

  it("a blocked time removed offers it", () => {
    const startsAt = studioInstant(day(), "09:00");
    const { block } = writeTransaction((tx) =>
      createBlockedTime(
        tx,
        { startsAt, endsAt: startsAt + 4 * HOUR, reason: "Maintenance" },
        owner.id,
        NOW,
      ),
    );
    const waiting = joinWaitlist(waiter.id, range(), NOW, WAIT);
    expect(writeTransaction((tx) => removeBlockedTime(tx, block.id))).toBe(true);
    offerFreedRangesNow(NOW + MINUTE, WAIT);
    expect(entry(waiting.id).status).toBe("OFFERED");
  });
});

describe("lapse and pass-on", () => {
  it("offers the earliest waiter first; unclaimed, the range passes to the next", async () => {
    const { booking, waiting } = takenAndWaited();
    const next = joinWaitlist(second.id, range(), NOW + MINUTE, WAIT);
    await cancelOwnBooking({ bookingId: booking.id, userId: owner.id }, NOW + 2 * MINUTE);
    offerFreedRangesNow(NOW + 2 * MINUTE, WAIT);
    expect(entry(waiting.id).status).toBe("OFFERED");
    expect(entry(next.id).status).toBe("WAITING");
    expect(offerMails(second.email)).toHaveLength(0);

    const expiry = entry(waiting.id).offerExpiresAt ?? 0;
    offerFreedRangesNow(expiry, WAIT);
    expect(entry(waiting.id)).toMatchObject({ status: "LAPSED", endedAt: expiry });
    expect(entry(next.id)).toMatchObject({ status: "OFFERED", offeredAt: expiry });
    expect(offerMails(second.email)).toHaveLength(1);
  });

  it("a removed offer passes on at once", async () => {
    const { booking, waiting } = takenAndWaited();
    const next = joinWaitlist(second.id, range(), NOW, WAIT);
    await cancelOwnBooking({ bookingId: booking.id, userId: owner.id }, NOW + MINUTE);
    removeWaitlistEntry(waiter.id, waiting.id, NOW + 2 * MINUTE, WAIT);
    expect(entry(next.id).status).toBe("OFFERED");
  });

  it("ends entries whose start is within 48 hours", () => {
    const { waiting } = takenAndWaited();
    const late = waiting.startsAt - 47 * HOUR;
    offerFreedRangesNow(late, WAIT);
    expect(entry(waiting.id)).toMatchObject({ status: "LAPSED", endedAt: late });
  });
});

describe("offers count towards MAX_UNPAID_SESSIONS", () => {
  const CAPPED: WaitlistSettings = { ...WAIT, maxUnpaidSessions: 2 };
  /** Unpaid sessions of the waiter's on days of their own, booked so their holds outlive the owner's. */
  const waiterHolds = (count: number) => {
    for (let n = 1; n <= count; n += 1) {
      bookSession(waiter, request({ recordingDate: day(n) }), NOW + 20 * MINUTE, SETTINGS);
    }
  };
  // The owner's holds (booked at NOW) have run out; the waiter's (at NOW + 20 minutes) have not.
  const AFTER = NOW + 31 * MINUTE;

  it("passes over a customer at the cap: they keep waiting, the next in line is offered", () => {
    const { waiting } = takenAndWaited();
    const next = joinWaitlist(second.id, range(), NOW + MINUTE, WAIT);
    waiterHolds(2);
    expect(offerFreedRangesNow(AFTER, CAPPED)).toBe(1);
    expect(entry(waiting.id)).toMatchObject({ status: "WAITING", offeredAt: null });
    expect(offerMails(waiter.email)).toHaveLength(0);
    expect(entry(next.id)).toMatchObject({ status: "OFFERED", offeredAt: AFTER });
    expect(offerMails(second.email)).toHaveLength(1);
  });

  it("offers the range once the customer is below the cap again", () => {
    const { waiting } = takenAndWaited();
    waiterHolds(2);
    expect(offerFreedRangesNow(AFTER, CAPPED)).toBe(0);
    expect(entry(waiting.id).status).toBe("WAITING");
    // Their holds run out (they could as well pay or cancel): the next sweep offers it.
    const later = NOW + 51 * MINUTE;
    expect(offerFreedRangesNow(later, CAPPED)).toBe(1);
    expect(entry(waiting.id)).toMatchObject({ status: "OFFERED", offeredAt: later });
  });

  it("counts the offers it makes: unpaid sessions and live offers never pass the cap", () => {
    bookSession(owner, request(), NOW, SETTINGS);
    bookSession(owner, request({ recordingTime: "15:00" }), NOW, SETTINGS);
    const first = joinWaitlist(waiter.id, range(), NOW, WAIT);
    const other = joinWaitlist(waiter.id, range({ recordingTime: "15:00" }), NOW, WAIT);
    const next = joinWaitlist(second.id, range({ recordingTime: "15:00" }), NOW + MINUTE, WAIT);
    waiterHolds(1);
    // One unpaid session and the first offer reach the cap of 2: the other range passes on.
    expect(offerFreedRangesNow(AFTER, CAPPED)).toBe(2);
    expect(entry(first.id).status).toBe("OFFERED");
    expect(entry(other.id).status).toBe("WAITING");
    expect(entry(next.id).status).toBe("OFFERED");
  });
});

describe("an offer is busy for everyone else", () => {
  it("keeps the range from another booking and from availability", async () => {
    const { booking, waiting } = takenAndWaited();
    await cancelOwnBooking({ bookingId: booking.id, userId: owner.id }, NOW + MINUTE);
    expect(entry(waiting.id).status).toBe("OFFERED");
    const at = NOW + 2 * MINUTE;
    expect(() => bookSession(second, request(), at, SETTINGS)).toThrowError(Refusal);
    const ten = getAvailability(day(), 2, at, 0).find((option) => option.time === "10:00");
    expect(ten?.reason).toBe("taken");
    // Its own customer sees it free.
    const own = getAvailability(day(), 2, at, 0, undefined, waiting.id);
    expect(own.find((option) => option.time === "10:00")?.available).toBe(true);
  });
});

describe("claiming", () => {
  async function offered() {
    const { booking, waiting } = takenAndWaited();
    await cancelOwnBooking({ bookingId: booking.id, userId: owner.id }, NOW + MINUTE);
    return waiting;
  }

  it("books the offer through bookSession and marks it CLAIMED with its booking", async () => {
    const waiting = await offered();
    const booking = bookSession(waiter, request(), NOW + 2 * MINUTE, SETTINGS, {
      waitlistEntryId: waiting.id,
    });
    expect(booking).toMatchObject({
      userId: waiter.id,
      recordingDate: day(),
      status: "PENDING_PAYMENT",
    });
    expect(entry(waiting.id)).toMatchObject({ status: "CLAIMED", bookingId: booking.id });
  });

  it("refuses a lapsed, removed, someone else's or different claim with our message, writing nothing", async () => {
    const waiting = await offered();
    const count = () => db.select().from(bookings).all().length;
    const before = count();
    expect(() =>
      bookSession(second, request(), NOW + 2 * MINUTE, SETTINGS, { waitlistEntryId: waiting.id }),
    ).toThrowError(WAITLIST_MESSAGES.claimGone);
    expect(() =>
      bookSession(waiter, request({ recordingTime: "14:00" }), NOW + 2 * MINUTE, SETTINGS, {
        waitlistEntryId: waiting.id,
      }),
    ).toThrowError(WAITLIST_MESSAGES.claimDifferent);
    const expiry = entry(waiting.id).offerExpiresAt ?? 0;
    expect(() =>
      bookSession(waiter, request(), expiry, SETTINGS, { waitlistEntryId: waiting.id }),
    ).toThrowError(WAITLIST_MESSAGES.claimGone);
    expect(count()).toBe(before);
    expect(entry(waiting.id).status).toBe("OFFERED");
    removeWaitlistEntry(waiter.id, waiting.id, NOW + 3 * MINUTE, WAIT);
    expect(() =>
      bookSession(waiter, request(), NOW + 4 * MINUTE, SETTINGS, { waitlistEntryId: waiting.id }),
    ).toThrowError(WAITLIST_MESSAGES.claimGone);
    expect(count()).toBe(before);
  });

  it("still holds the claim to every booking rule: the horizon", async () => {
    const waiting = await offered();
    expect(() =>
      bookSession(
        waiter,
        request(),
        NOW + 2 * MINUTE,
        { ...SETTINGS, horizonDays: 1 },
        {
          waitlistEntryId: waiting.id,
        },
      ),
    ).toThrowError(/can be booked up to/);
    expect(entry(waiting.id).status).toBe("OFFERED");
  });

  it("of two offers for overlapping ranges, only one claim books", async () => {
    const { booking, waiting } = takenAndWaited();
    const overlapping = joinWaitlist(second.id, range({ recordingTime: "11:00" }), NOW, WAIT);
    await cancelOwnBooking({ bookingId: booking.id, userId: owner.id }, NOW + MINUTE);
    // The first offer is busy for the overlapping range: it waits.
    expect(entry(overlapping.id).status).toBe("WAITING");
    const at = NOW + 2 * MINUTE;
    const claimed = bookSession(waiter, request(), at, SETTINGS, { waitlistEntryId: waiting.id });
    // As if the second were offered too (a range freed twice over): the slot check decides.
    db.update(waitlistEntries)
      .set({ status: "OFFERED", offeredAt: at, offerExpiresAt: at + DAY })
      .where(eq(waitlistEntries.id, overlapping.id))
      .run();
    expect(() =>
      bookSession(second, request({ recordingTime: "11:00" }), at, SETTINGS, {
        waitlistEntryId: overlapping.id,
      }),
    ).toThrowError(Refusal);
    expect(entry(overlapping.id).status).toBe("OFFERED");
    expect(
      db
        .select()
        .from(bookings)
        .where(eq(bookings.recordingDate, day()))
        .all()
        .filter((row) => row.status !== "CANCELLED")
        .map((row) => row.id),
    ).toEqual([claimed.id]);
  });
});
