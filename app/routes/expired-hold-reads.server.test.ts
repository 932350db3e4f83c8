import { createHash } from "node:crypto";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "#app/db.server";
import { addStudioDays } from "#app/domain/studio-time";
import { getAvailability } from "#app/models/booking.server";
import { checkCoupon } from "#app/models/coupon.server";
import { loadBookingsTab } from "#app/routes/admin/bookings-tab.server";
import { loader as adminBookingsApi } from "#app/routes/api/admin/bookings";
import { loader as ownBookingsApi } from "#app/routes/api/bookings";
import { loadSessionsTab } from "#app/routes/dashboard/sessions.server";
import { createSignIn } from "#app/web/sign-in.server";
import { bookSession } from "#app/workflows/book-session.server";
import { sweepExpiredHolds } from "#app/workflows/expire-holds.server";
import { createBooking } from "#tests/factories/booking";
import { createCoupon } from "#tests/factories/catalog";
import {
  BOOKED_AT,
  day,
  MINUTE,
  makeUser,
  request,
  SETTINGS,
} from "#tests/setup/workflow-bookings";

/**
 * A hold past its time, not swept yet, as the GETs read it (docs/product.md "Availability and
 * holds"): the customer's list, the admin list and calendar, both JSON lists. They write
 * nothing, yet show it released exactly as the sweep leaves it: cancelled, its slot free, its
 * coupon use and retainer hours given back.
 */
const AFTER_HOLD = BOOKED_AT + (SETTINGS.holdMinutes + 1) * MINUTE;
const APP = "https://t.test";

/**
 * Every table's rows, hashed: equal before and after means nothing was written. A sign-in
 * session's last-seen time is left out: any signed-in request may write it (bookkeeping).
 */
function snapshot() {
  const tables = db.$client
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables.map((name) => {
      const rows = db.$client.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[];
      const kept = rows.map(({ last_seen_at: _seen, ...row }) => row);
      return [name, createHash("sha256").update(JSON.stringify(kept)).digest("hex")];
    }),
  );
}

let customer: ReturnType<typeof makeUser>;
let cookie: string;
let held: { id: number; recordingDate: string };
let couponCode: string;

beforeAll(async () => {
  customer = makeUser("holder");
  const date = day();
  // A paid retainer with one hour left, and a one-use coupon: the hold takes both.
  createBooking(db, {
    user: customer,
    date,
    time: "08:00",
    hours: 2,
    isRetainer: true,
    retainerStartDate: date,
    retainerEndDate: addStudioDays(date, 30),
    retainerTotalHours: 8,
    retainerHoursUsed: 7,
  });
  const coupon = createCoupon(db, { type: "FIXED_AMOUNT", value: 5000, maxUses: 1 });
  couponCode = coupon.code;
  const booking = bookSession(
    customer,
    request({ recordingDate: date, recordingTime: "12:00", hoursNeeded: 3, couponCode }),
    BOOKED_AT,
    SETTINGS,
  );
  expect(booking).toMatchObject({ status: "PENDING_PAYMENT", retainerHoursDrawn: 1 });
  held = booking;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(BOOKED_AT);
  const setCookie = await createSignIn(new Request(APP), customer.id, false);
  cookie = setCookie.split(";")[0] ?? "";
});

afterAll(() => {
  vi.useRealTimers();
});

/** What every GET shows of the customer's bookings, the studio's and the coupon, at `now`. */
async function reads(now: number) {
  // The JSON loaders read the clock themselves.
  vi.setSystemTime(now);
  const customerTab = loadSessionsTab(customer, now);
  const ownJson = await (
    await ownBookingsApi({
      request: new Request(`${APP}/api/bookings`, { headers: { Cookie: cookie } }),
      context: new RouterContextProvider(),
    } as unknown as Parameters<typeof ownBookingsApi>[0])
  ).json();
  const adminList = (status: string) =>
    loadBookingsTab(new Request(`${APP}/admin/bookings?status=${status}`), now).list?.rows.map(
      (row) => [row.id, row.status],
    );
  const adminCalendar = loadBookingsTab(
    new Request(`${APP}/admin/bookings?view=calendar&cal=day&around=${held.recordingDate}`),
    now,
  ).calendar?.events.map((event) => [event.id, event.status]);
  const adminJson = await (
    (await adminBookingsApi({
      request: new Request(`${APP}/api/admin/bookings?status=CANCELLED&page=1`),
    } as unknown as Parameters<typeof adminBookingsApi>[0])) as Response
  ).json();
  return {
    customerTab,
    ownJson,
    cancelledForStaff: adminList("CANCELLED"),
    unpaidForStaff: adminList("PENDING_PAYMENT"),
    adminCalendar,
    adminJson,
    couponUsable: checkCoupon(couponCode, now).isValid,
    slotFree: getAvailability(held.recordingDate, 3, now, 0).find((t) => t.time === "12:00")
      ?.available,
  };
}

describe("GETs over an expired hold the sweep has not reached", () => {
  it("write nothing, and show it released: cancelled, its slot, coupon use and hours free", async () => {
    const before = snapshot();
    const seen = await reads(AFTER_HOLD);
    expect(snapshot()).toEqual(before);

    const session = [...seen.customerTab.upcoming, ...seen.customerTab.past].find(
      (row) => row.id === held.id,
    );
    expect(session).toMatchObject({ status: "CANCELLED", payable: false });
    expect(seen.customerTab.retainer).toMatchObject({ usedHours: 7, hoursLeft: 1 });
    const ownRow = (seen.ownJson as { id: number }[]).find((row) => row.id === held.id);
    expect(ownRow).toMatchObject({ status: "CANCELLED", holdExpiresAt: null });
    const retainerRow = (seen.ownJson as { isRetainer: boolean }[]).find((row) => row.isRetainer);
    expect(retainerRow).toMatchObject({ retainerHoursUsed: 7 });
    expect(seen.cancelledForStaff).toContainEqual([held.id, "CANCELLED"]);
    expect(seen.unpaidForStaff).not.toContainEqual([held.id, expect.anything()]);
    expect(seen.adminCalendar).toContainEqual([held.id, "CANCELLED"]);
    expect(seen.adminJson).toContainEqual(
      expect.objectContaining({ id: held.id, status: "CANCELLED" }),
    );
    expect(seen.couponUsable).toBe(true);
    expect(seen.slotFree).toBe(true);

    // The same GETs before the hold ran out show it held, its coupon and hour taken.
    const live = await reads(BOOKED_AT);
    expect(live.unpaidForStaff).toContainEqual([held.id, "PENDING_PAYMENT"]);
    expect(live.couponUsable).toBe(false);
    expect(live.customerTab.retainer).toBeNull();
    expect(live.slotFree).toBe(false);

    // The sweep writes exactly what the reads showed.
    expect(sweepExpiredHolds(AFTER_HOLD)).toBe(1);
    expect(snapshot()).not.toEqual(before);
    expect(await reads(AFTER_HOLD)).toEqual(seen);
  });
});
