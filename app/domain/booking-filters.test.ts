import { describe, expect, it } from "vitest";
import { type BookingFilters, emptyBookingsText, filterSearch } from "#app/domain/booking-filters";

const none: BookingFilters = { date: null, status: null, membership: "all", view: "list", page: 1 };

describe("emptyBookingsText", () => {
  it("adds the suffixes of docs/product.md 'Bookings tab' for each filter in use", () => {
    expect(emptyBookingsText(none)).toBe("No bookings found");
    expect(emptyBookingsText({ ...none, date: "2026-12-01" })).toBe(
      "No bookings found for the selected date",
    );
    expect(
      emptyBookingsText({ date: "2026-12-01", status: "POST_PRODUCTION", membership: "members" }),
    ).toBe("No bookings found for the selected date with status In Post-Production for members");
    expect(emptyBookingsText({ ...none, membership: "non-members" })).toBe(
      "No bookings found for non-members",
    );
  });
});

describe("filterSearch", () => {
  it("leaves defaults out and applies changes", () => {
    expect(filterSearch(none)).toBe("");
    expect(filterSearch({ ...none, status: "PENDING", page: 3 }, { page: 1 })).toBe(
      "?status=PENDING",
    );
    expect(filterSearch(none, { view: "calendar", membership: "members" })).toBe(
      "?view=calendar&membership=members",
    );
  });

  it("keeps the calendar's own keys only in calendar view", () => {
    const current = new URLSearchParams("cal=week&around=2026-12-01&other=x");
    expect(filterSearch({ ...none, view: "calendar" }, {}, current)).toBe(
      "?view=calendar&cal=week&around=2026-12-01",
    );
    expect(filterSearch({ ...none, view: "calendar" }, { view: "list" }, current)).toBe("");
  });
});
