import { describe, expect, it } from "vitest";
import {
  readBookingFilters,
  readStudioDay,
  studioDayRange,
} from "#app/models/booking-filters.server";

const read = (query: string) =>
  readBookingFilters(new URL(`https://t.test/admin/bookings${query}`));

describe("readBookingFilters", () => {
  it("reads every filter from the URL", () => {
    expect(
      read("?date=2026-12-01&status=confirmed&membership=members&view=calendar&page=2"),
    ).toEqual({
      date: "2026-12-01",
      status: "CONFIRMED",
      membership: "members",
      view: "calendar",
      page: 2,
    });
  });

  it("reads anything unknown as no filter", () => {
    expect(read("?date=2026-02-30&status=DONE&membership=vip&view=grid&page=-1")).toEqual({
      date: null,
      status: null,
      membership: "all",
      view: "list",
      page: 1,
    });
    expect(read("")).toMatchObject({ date: null, status: null });
  });

  it("accepts only real calendar days", () => {
    expect(readStudioDay("2028-02-29")).toBe("2028-02-29");
    for (const bad of [
      "2026-02-29",
      "2026-13-01",
      "26-01-01",
      "2026-1-1",
      "",
      null,
      "9999-01-01",
    ]) {
      expect(readStudioDay(bad)).toBeNull();
    }
  });
});

describe("studioDayRange", () => {
  const HOUR = 3_600_000;
  it("is a studio day, midnight to midnight in Atlanta", () => {
    const { from, to } = studioDayRange("2026-12-01");
    expect(new Date(from).toISOString()).toBe("2026-12-01T05:00:00.000Z");
    expect(to - from).toBe(24 * HOUR);
  });

  it("is 23 and 25 hours long on the clock-change days", () => {
    const spring = studioDayRange("2026-03-08");
    expect(spring.to - spring.from).toBe(23 * HOUR);
    const autumn = studioDayRange("2026-11-01");
    expect(autumn.to - autumn.from).toBe(25 * HOUR);
  });
});
