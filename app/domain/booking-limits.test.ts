import { describe, expect, it } from "vitest";
import {
  horizonProblem,
  lastBookableDate,
  tooManyUnpaidHolds,
  tooManyUnpaidSessions,
  unpaidHoldsMessage,
  unpaidSessionsMessage,
} from "#app/domain/booking-limits";

describe("booking horizon", () => {
  it("allows the day exactly at the horizon and refuses the day after", () => {
    expect(lastBookableDate("2026-11-25", 365)).toBe("2027-11-25");
    expect(horizonProblem("2027-11-25", "2026-11-25", 365)).toBeNull();
    expect(horizonProblem("2027-11-26", "2026-11-25", 365)).toBe(
      "Sessions can be booked up to 2027-11-25. Please choose an earlier date.",
    );
  });

  it("counts calendar days across a leap day and the clock changes", () => {
    expect(lastBookableDate("2028-02-28", 1)).toBe("2028-02-29");
    expect(lastBookableDate("2027-03-13", 1)).toBe("2027-03-14");
    expect(lastBookableDate("2027-11-06", 1)).toBe("2027-11-07");
  });

  it("refuses year 9999 with the default horizon", () => {
    expect(horizonProblem("9999-12-30", "2026-11-25", 365)).not.toBeNull();
  });
});

describe("unpaid holds cap", () => {
  it("allows a booking at N-1 open holds and refuses at N", () => {
    expect(tooManyUnpaidHolds(0, 2)).toBe(false);
    expect(tooManyUnpaidHolds(1, 2)).toBe(false);
    expect(tooManyUnpaidHolds(2, 2)).toBe(true);
    expect(tooManyUnpaidHolds(3, 2)).toBe(true);
  });

  it("says what to do", () => {
    expect(unpaidHoldsMessage(2)).toBe(
      "You already have 2 unpaid bookings waiting for payment. Please pay for or cancel one of them before booking another session.",
    );
    expect(unpaidHoldsMessage(1)).toContain("one unpaid booking");
  });
});

describe("unpaid sessions cap", () => {
  const CAP = 12;
  const none = { unpaidSessions: 0, liveOffers: 0 };

  it("allows a single session up to the cap and refuses one past it", () => {
    // cap - 1 held: the one added reaches the cap.
    expect(tooManyUnpaidSessions({ unpaidSessions: CAP - 1, liveOffers: 0, adding: 1 }, CAP)).toBe(
      false,
    );
    // cap held: one more would be cap + 1.
    expect(tooManyUnpaidSessions({ unpaidSessions: CAP, liveOffers: 0, adding: 1 }, CAP)).toBe(
      true,
    );
    expect(tooManyUnpaidSessions({ unpaidSessions: CAP + 1, liveOffers: 0, adding: 1 }, CAP)).toBe(
      true,
    );
  });

  it("counts every session of a series: a full series fits alone, not beside another", () => {
    expect(tooManyUnpaidSessions({ ...none, adding: CAP }, CAP)).toBe(false);
    expect(tooManyUnpaidSessions({ ...none, adding: CAP + 1 }, CAP)).toBe(true);
    expect(tooManyUnpaidSessions({ unpaidSessions: 1, liveOffers: 0, adding: CAP }, CAP)).toBe(
      true,
    );
    expect(tooManyUnpaidSessions({ unpaidSessions: CAP, liveOffers: 0, adding: CAP }, CAP)).toBe(
      true,
    );
    expect(tooManyUnpaidSessions({ unpaidSessions: 10, liveOffers: 0, adding: 2 }, CAP)).toBe(
      false,
    );
    expect(tooManyUnpaidSessions({ unpaidSessions: 10, liveOffers: 0, adding: 3 }, CAP)).toBe(true);
  });

  it("counts live waitlist offers as held sessions", () => {
    expect(tooManyUnpaidSessions({ unpaidSessions: 10, liveOffers: 1, adding: 1 }, CAP)).toBe(
      false,
    );
    expect(tooManyUnpaidSessions({ unpaidSessions: 10, liveOffers: 2, adding: 1 }, CAP)).toBe(true);
    expect(tooManyUnpaidSessions({ unpaidSessions: 0, liveOffers: CAP, adding: 1 }, CAP)).toBe(
      true,
    );
    // Offering one more range (adding 1) to a customer at the cap is refused the same way.
    expect(tooManyUnpaidSessions({ unpaidSessions: 11, liveOffers: 0, adding: 1 }, CAP)).toBe(
      false,
    );
    expect(tooManyUnpaidSessions({ unpaidSessions: 11, liveOffers: 1, adding: 1 }, CAP)).toBe(true);
  });

  it("does not count a claimed offer twice: it becomes the session it books", () => {
    const atCap = { unpaidSessions: CAP - 1, liveOffers: 1, adding: 1 };
    expect(tooManyUnpaidSessions(atCap, CAP)).toBe(true);
    expect(tooManyUnpaidSessions({ ...atCap, claimsOffer: true }, CAP)).toBe(false);
    // Another live offer beside the claimed one still counts.
    expect(
      tooManyUnpaidSessions(
        { unpaidSessions: CAP - 1, liveOffers: 2, adding: 1, claimsOffer: true },
        CAP,
      ),
    ).toBe(true);
    // A claim with no live offer counted (it ran out meanwhile) takes nothing off.
    expect(
      tooManyUnpaidSessions(
        { unpaidSessions: CAP, liveOffers: 0, adding: 1, claimsOffer: true },
        CAP,
      ),
    ).toBe(true);
  });

  it("says how many are held, the cap and what to do", () => {
    expect(unpaidSessionsMessage({ unpaidSessions: 12, liveOffers: 0, adding: 1 }, 12)).toBe(
      "You already have 12 unpaid sessions waiting for payment: at most 12 unpaid sessions may be held at once. Please pay for or cancel one of them before booking another session.",
    );
    expect(unpaidSessionsMessage({ unpaidSessions: 12, liveOffers: 0, adding: 12 }, 12)).toBe(
      "You already have 12 unpaid sessions waiting for payment, and this series would add 12: at most 12 unpaid sessions may be held at once. Please pay for or cancel some of them before booking more.",
    );
    expect(unpaidSessionsMessage({ unpaidSessions: 11, liveOffers: 1, adding: 1 }, 12)).toBe(
      "You already have 11 unpaid sessions waiting for payment and 1 waitlist offer held for you: at most 12 unpaid sessions may be held at once, waitlist offers included. Please pay for, cancel or remove one of them before booking another session.",
    );
    expect(unpaidSessionsMessage({ unpaidSessions: 1, liveOffers: 0, adding: 1 }, 1)).toBe(
      "You already have 1 unpaid session waiting for payment: at most 1 unpaid session may be held at once. Please pay for or cancel one of them before booking another session.",
    );
    expect(unpaidSessionsMessage({ unpaidSessions: 0, liveOffers: 2, adding: 1 }, 2)).toContain(
      "You already have 2 waitlist offers held for you:",
    );
    // A claim's own offer is not named as held beside it.
    expect(
      unpaidSessionsMessage(
        { unpaidSessions: 12, liveOffers: 1, adding: 1, claimsOffer: true },
        12,
      ),
    ).toMatch(/^You already have 12 unpaid sessions waiting for payment: /);
    // A series larger than the cap on its own.
    expect(unpaidSessionsMessage({ ...none, adding: 8 }, 5)).toBe(
      "This series would leave 8 sessions waiting for payment, more than the 5 one account may hold at once. Please book fewer sessions.",
    );
  });
});
