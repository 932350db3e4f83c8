import { describe, expect, it } from "vitest";
import {
  discountOf,
  guestsLabel,
  hoursLabel,
  paymentMethodLabel,
  retainerLastDay,
  sessionListOf,
  sessionListParam,
  shortSessionDate,
  shortStudioDay,
  splitSessions,
  statusLabel,
  statusTone,
} from "#app/domain/session-list";
import { studioSession } from "#app/domain/studio-time";

// Instants are written in UTC, so the expectations hold in any process zone (the suite runs
// under TZ=UTC and TZ=Pacific/Auckland).
const utc = (iso: string) => Date.parse(iso);

let nextId = 1;
function session(date: string, time = "10:00", hours = 2) {
  return { id: nextId++, recordingDate: date, ...studioSession(date, time, hours) };
}

describe("sessionListOf", () => {
  it("puts today's sessions in upcoming, even one that has already ended", () => {
    // 23:00 in Atlanta on Nov 24 is 04:00Z on Nov 25.
    const now = utc("2026-11-25T04:00:00Z");
    expect(sessionListOf(session("2026-11-24", "08:00"), now)).toBe("upcoming");
    expect(sessionListOf(session("2026-11-25", "08:00"), now)).toBe("upcoming");
    expect(sessionListOf(session("2026-11-23", "22:00"), now)).toBe("past");
  });

  it("turns over at midnight in Atlanta, not at midnight UTC", () => {
    const beforeMidnight = utc("2026-11-25T04:59:59Z"); // 23:59:59 EST on Nov 24
    const afterMidnight = utc("2026-11-25T05:00:00Z"); // 00:00 EST on Nov 25
    const yesterday = session("2026-11-24", "12:00");
    expect(sessionListOf(yesterday, beforeMidnight)).toBe("upcoming");
    expect(sessionListOf(yesterday, afterMidnight)).toBe("past");
  });

  it("turns over at midnight on daylight-saving days (offsets -5 and -4)", () => {
    // Spring forward, 2026-03-08: midnight is still EST (05:00Z).
    const spring = session("2026-03-07", "23:00");
    expect(sessionListOf(spring, utc("2026-03-08T04:59:00Z"))).toBe("upcoming");
    expect(sessionListOf(spring, utc("2026-03-08T05:00:00Z"))).toBe("past");
    // The day after, midnight is EDT (04:00Z).
    const springDay = session("2026-03-08", "01:00");
    expect(sessionListOf(springDay, utc("2026-03-09T03:59:00Z"))).toBe("upcoming");
    expect(sessionListOf(springDay, utc("2026-03-09T04:00:00Z"))).toBe("past");
    // Fall back, 2026-11-01: a session in the repeated hour, midnight after it is EST.
    const fallDay = session("2026-11-01", "01:30");
    expect(sessionListOf(fallDay, utc("2026-11-02T04:59:00Z"))).toBe("upcoming");
    expect(sessionListOf(fallDay, utc("2026-11-02T05:00:00Z"))).toBe("past");
  });
});

describe("splitSessions", () => {
  it("sorts upcoming soonest first and past most recent first", () => {
    const now = utc("2026-06-15T16:00:00Z");
    const later = session("2026-07-01", "10:00");
    const soon = session("2026-06-20", "18:00");
    const sameDayEarly = session("2026-06-20", "08:00");
    const lastMonth = session("2026-05-10");
    const lastWeek = session("2026-06-08");
    const { upcoming, past } = splitSessions([later, lastMonth, soon, lastWeek, sameDayEarly], now);
    expect(upcoming.map((s) => s.id)).toEqual([sameDayEarly.id, soon.id, later.id]);
    expect(past.map((s) => s.id)).toEqual([lastWeek.id, lastMonth.id]);
  });

  it("orders by the instant across a clock change, and equal starts by booking number", () => {
    const now = utc("2026-10-01T12:00:00Z");
    // On 2026-11-01 the 01:30 before the change (EDT) comes before 01:00 the day after.
    const first = session("2026-11-01", "01:30");
    const second = session("2026-11-02", "01:00");
    const twin = { ...second, id: second.id + 100 };
    const { upcoming } = splitSessions([twin, second, first], now);
    expect(upcoming.map((s) => s.id)).toEqual([first.id, second.id, twin.id]);
  });

  it("does not change the list it is given", () => {
    const list = [session("2026-07-01"), session("2026-06-01")];
    const copy = [...list];
    splitSessions(list, utc("2026-01-01T00:00:00Z"));
    expect(list).toEqual(copy);
  });
});

describe("sessionListParam", () => {
  it("reads past and falls back to upcoming", () => {
    expect(sessionListParam("past")).toBe("past");
    expect(sessionListParam("upcoming")).toBe("upcoming");
    for (const value of [null, "", "PAST", "__proto__", "past "]) {
      expect(sessionListParam(value)).toBe("upcoming");
    }
  });
});

describe("status", () => {
  it("uses the labels of docs/product.md 'Booking statuses'", () => {
    expect(statusLabel("PENDING_PAYMENT")).toBe("Pending Payment");
    expect(statusLabel("PENDING")).toBe("Pending Review");
    expect(statusLabel("POST_PRODUCTION")).toBe("In Post-Production");
  });

  it("uses the colours of docs/product.md 'Client dashboard'", () => {
    expect(statusTone("CONFIRMED")).toBe("green");
    expect(statusTone("PENDING_PAYMENT")).toBe("yellow");
    expect(statusTone("COMPLETED")).toBe("blue");
    expect(statusTone("CANCELLED")).toBe("red");
    for (const status of ["PENDING", "RECORDED", "POST_PRODUCTION"] as const) {
      expect(statusTone(status)).toBe("grey");
    }
  });
});

describe("display", () => {
  it("shows the studio's date in en-US short form", () => {
    // 01:00 on Nov 25 in Atlanta is still Nov 25 though it is 06:00Z (and Nov 25 in Auckland).
    expect(shortSessionDate({ startsAt: utc("2026-11-25T06:00:00Z") })).toBe("Nov 25, 2026");
    // 23:00 on Nov 24 in Atlanta is Nov 25 in UTC.
    expect(shortSessionDate({ startsAt: utc("2026-11-25T04:00:00Z") })).toBe("Nov 24, 2026");
    expect(shortStudioDay("2026-03-08")).toBe("Mar 8, 2026");
  });

  it("shows a discount only when the original cost exceeds the total", () => {
    expect(discountOf({ originalCost: 400, totalCost: 320, discountAmount: 80 })).toBe(80);
    expect(discountOf({ originalCost: 400, totalCost: 320, discountAmount: 0 })).toBe(80);
    expect(discountOf({ originalCost: 400, totalCost: 400, discountAmount: 0 })).toBe(0);
    expect(discountOf({ originalCost: 400, totalCost: 400, discountAmount: 50 })).toBe(0);
  });

  it("counts hours and guests", () => {
    expect(hoursLabel("2")).toBe("2 hours");
    expect(hoursLabel(1)).toBe("1 hour");
    expect(guestsLabel("1")).toBe("1 guest");
    expect(guestsLabel("4")).toBe("4 guests");
  });

  it("names a retainer's last usable day", () => {
    expect(retainerLastDay("2026-12-01")).toBe("2026-11-30");
    expect(retainerLastDay("2026-03-09")).toBe("2026-03-08");
  });
});

describe("paymentMethodLabel", () => {
  it("names the card by brand and last 4 digits", () => {
    expect(paymentMethodLabel("card", { brand: "visa", last4: "4242" })).toBe("Visa •••• 4242");
    expect(paymentMethodLabel("card", { brand: "mastercard", last4: "4444" })).toBe(
      "Mastercard •••• 4444",
    );
  });

  it("falls back to the method when the details are missing or odd", () => {
    expect(paymentMethodLabel("card", null)).toBe("Card");
    expect(paymentMethodLabel("refund", {})).toBe("Refund");
    expect(paymentMethodLabel("card", { brand: "", last4: "42" })).toBe("Card");
    expect(paymentMethodLabel("card", { brand: 7, last4: 4242 })).toBe("Card");
  });
});
