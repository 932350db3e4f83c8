import { type BookingStatus, STATUS_LABELS } from "#app/domain/booking-status";

/** The Bookings and Sessions tabs' filters as they live in the URL (docs/product.md "Screens"). */
export const MEMBERSHIP_FILTERS = ["all", "members", "non-members"] as const;
export type MembershipFilter = (typeof MEMBERSHIP_FILTERS)[number];
export const VIEWS = ["list", "calendar"] as const;
export type BookingsView = (typeof VIEWS)[number];

export type BookingFilters = {
  date: string | null;
  status: BookingStatus | null;
  membership: MembershipFilter;
  view: BookingsView;
  page: number;
};

/** Links and forms of the tabs carry the calendar's own keys along untouched. */
export const CALENDAR_KEYS = ["cal", "around"] as const;

export function filterSearch(
  filters: BookingFilters,
  changes: Partial<BookingFilters> = {},
  current?: URLSearchParams,
): string {
  const next = { ...filters, ...changes };
  const params = new URLSearchParams();
  if (next.view !== "list") params.set("view", next.view);
  if (next.date) params.set("date", next.date);
  if (next.status) params.set("status", next.status);
  if (next.membership !== "all") params.set("membership", next.membership);
  if (next.page > 1) params.set("page", String(next.page));
  if (current && next.view === "calendar") {
    for (const key of CALENDAR_KEYS) {
      const value = current.get(key);
      if (value !== null) params.set(key, value);
    }
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

const MEMBERSHIP_SUFFIXES: Record<MembershipFilter, string> = {
  all: "",
  members: " for members",
  "non-members": " for non-members",
};

/** docs/product.md "Bookings tab". */
export function emptyBookingsText(
  filters: Pick<BookingFilters, "date" | "status" | "membership">,
): string {
  return [
    "No bookings found",
    filters.date ? " for the selected date" : "",
    filters.status ? ` with status ${STATUS_LABELS[filters.status]}` : "",
    MEMBERSHIP_SUFFIXES[filters.membership],
  ].join("");
}
