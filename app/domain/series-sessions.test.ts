import { describe, expect, it } from "vitest";
import {
  seriesPosition,
  seriesPositionLabel,
  followingSessions,
  groupSessionRows,
  providerCharge,
  seriesHeading,
  sessionPaymentReference,
} from "#app/domain/series-sessions";
import { studioInstant } from "#app/domain/studio-time";

const at = (date: string, time = "19:00") => studioInstant(date, time);

describe("seriesHeading", () => {
  const tuesdays = ["2026-12-01", "2026-12-08", "2026-12-15", "2026-12-22", "2026-12-29"];

  it("names the kind, the weekday and wall time in studio time, and the live sessions", () => {
    const sessions = tuesdays.map((date) => ({ startsAt: at(date), status: "PENDING_PAYMENT" }));
    expect(seriesHeading("week", sessions)).toBe("Weekly series · Tuesdays 7:00 PM · 5 sessions");
    expect(seriesHeading("2weeks", sessions.slice(0, 2))).toBe(
      "Every-2-weeks series · Tuesdays 7:00 PM · 2 sessions",
    );
  });

  it("counts only sessions still booked, and says 1 session", () => {
    const sessions = tuesdays.map((date, index) => ({
      startsAt: at(date),
      status: index === 0 ? "PENDING" : "CANCELLED",
    }));
    expect(seriesHeading("week", sessions)).toBe("Weekly series · Tuesdays 7:00 PM · 1 session");
  });

  it("keeps 7 PM across the clock change (studio wall time, whatever the server's zone)", () => {
    const sessions = ["2026-10-27", "2026-11-03"].map((date) => ({
      startsAt: at(date),
      status: "PENDING",
    }));
    expect(seriesHeading("week", sessions)).toBe("Weekly series · Tuesdays 7:00 PM · 2 sessions");
    expect(seriesHeading("week", sessions.slice(1))).toContain("7:00 PM");
  });
});

describe("groupSessionRows", () => {
  it("gathers a series under one block where its first session is, keeping single sessions in order", () => {
    const rows = [
      { id: 1, seriesId: null },
      { id: 2, seriesId: 7 },
      { id: 3, seriesId: null },
      { id: 4, seriesId: 7 },
      { id: 5, seriesId: 9 },
      { id: 6, seriesId: 7 },
    ];
    expect(groupSessionRows(rows)).toEqual([
      { kind: "single", rows: [{ id: 1, seriesId: null }] },
      {
        kind: "series",
        seriesId: 7,
        rows: [
          { id: 2, seriesId: 7 },
          { id: 4, seriesId: 7 },
          { id: 6, seriesId: 7 },
        ],
      },
      { kind: "single", rows: [{ id: 3, seriesId: null }] },
      { kind: "series", seriesId: 9, rows: [{ id: 5, seriesId: 9 }] },
    ]);
  });

  it("leaves a list without series as one block, and an empty list empty", () => {
    expect(groupSessionRows([{ seriesId: null }, { seriesId: null }])).toEqual([
      { kind: "single", rows: [{ seriesId: null }, { seriesId: null }] },
    ]);
    expect(groupSessionRows([])).toEqual([]);
  });
});

describe("followingSessions", () => {
  const session = (id: number, date: string, status = "PENDING", orderId: number | null = 3) => ({
    id,
    startsAt: at(date),
    status,
    orderId,
  });

  it("is the chosen session and every later live one of its series, in date order", () => {
    const all = [
      session(4, "2026-12-22"),
      session(1, "2026-12-01"),
      session(2, "2026-12-08"),
      session(3, "2026-12-15", "CANCELLED"),
      session(5, "2026-12-29"),
      session(9, "2026-12-30", "PENDING", 4),
    ];
    expect(followingSessions(all[2] ?? session(0, "2026-01-01"), all).map((s) => s.id)).toEqual([
      2, 4, 5,
    ]);
  });

  it("leaves out completed sessions", () => {
    const all = [session(1, "2026-12-01"), session(2, "2026-12-08", "COMPLETED")];
    expect(followingSessions(all[0] ?? session(0, "2026-01-01"), all).map((s) => s.id)).toEqual([
      1,
    ]);
  });
});

describe("session payment references", () => {
  it("gives each session's row its own reference and finds the charge again", () => {
    const a = sessionPaymentReference("pi_123", 5, 2);
    const b = sessionPaymentReference("pi_123", 6, 2);
    expect(a).not.toBe(b);
    expect(providerCharge(a)).toBe("pi_123");
    expect(providerCharge(b)).toBe("pi_123");
    expect(providerCharge("pi_456")).toBe("pi_456");
    expect(providerCharge("sandbox_abc")).toBe("sandbox_abc");
  });

  it("keeps the charge's own reference when the charge pays one session", () => {
    expect(sessionPaymentReference("pi_123", 5, 1)).toBe("pi_123");
    expect(providerCharge(sessionPaymentReference("pi_123", 5, 1))).toBe("pi_123");
  });
});

describe("seriesPosition and seriesPositionLabel", () => {
  const sessions = [{ id: 11 }, { id: 12 }, { id: 13 }, { id: 14 }, { id: 15 }];

  it("places a session in date order among every session of its series", () => {
    expect(seriesPosition(12, sessions)).toEqual({ index: 2, total: 5 });
    expect(seriesPosition(15, sessions)).toEqual({ index: 5, total: 5 });
    expect(seriesPosition(99, sessions)).toBeNull();
  });

  it("words it for staff and for the customer", () => {
    const position = { index: 2, total: 5 };
    expect(seriesPositionLabel("staff", "week", position)).toBe("Weekly series · session 2 of 5");
    expect(seriesPositionLabel("customer", "week", position)).toBe(
      "Session 2 of 5 of your weekly series",
    );
    expect(seriesPositionLabel("customer", "2weeks", position)).toBe(
      "Session 2 of 5 of your every-2-weeks series",
    );
  });
});
