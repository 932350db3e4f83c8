import type { Page, TestInfo } from "@playwright/test";
import { eq } from "drizzle-orm";
import { bookings, emailOutbox, payments } from "#db/schema";
import { studioSession } from "#app/domain/studio-time";
import {
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  type TestUser,
  test,
  toast,
  addDays,
  jsOn,
  studioToday,
  signIn,
  type OwnServer,
  startOwnServer,
  holdPageScripts,
} from "#tests/e2e/fixtures";
import { createBooking } from "#tests/factories/booking";
import { E2E_BOOKING_HORIZON_DAYS } from "#tests/e2e/env";
import { CARD_DETAILS, createPayment } from "#tests/factories/payment";

/**
 * Cancelling with the refund shown first (early: in full; late: the fee kept) and moving a
 * session to another free time, from My Sessions, with and without JavaScript.
 */
const HOUR = 3_600_000;

/**
 * A day no other test of the run uses: 45-74 days ahead (the booking journeys use 10-39), by
 * project and journey; the hour by worker, so parallel workers never share a slot.
 */
function dayFor(testInfo: TestInfo, journey: number): { date: string; time: string } {
  const projectDays = jsOn(testInfo) ? 45 : 60;
  const hour = 8 + (testInfo.workerIndex % 4) * 2;
  return {
    date: addDays(studioToday(), projectDays + journey),
    time: `${String(hour).padStart(2, "0")}:00`,
  };
}

/** A paid session of `user` ($400, 2 hours) in `status`, written straight into SQLite. */
function insertPaidSession(
  user: TestUser,
  slot: { startsAt: number; date: string; time: string },
  status: "PENDING" | "CONFIRMED",
): number {
  const booking = createBooking(db(), {
    user,
    date: slot.date,
    time: slot.time,
    // The instants as given: on the fall-back night a wall time names two of them.
    startsAt: slot.startsAt,
    endsAt: slot.startsAt + 2 * HOUR,
    status,
  });
  createPayment(db(), {
    booking,
    amount: 400,
    paymentMethod: "card",
    transactionId: `sandbox_e2e_${booking.id}`,
    paymentDetails: CARD_DETAILS,
  });
  return booking.id;
}

function sessionOn(user: TestUser, date: string, time: string, status: "PENDING" | "CONFIRMED") {
  const { startsAt } = studioSession(date, time, 2);
  return insertPaidSession(user, { startsAt, date, time }, status);
}

/** A confirmed session starting in about 20 hours: inside the 24-hour line. */
function sessionTomorrow(user: TestUser) {
  const startsAt = Math.ceil((Date.now() + 20 * HOUR) / HOUR) * HOUR;
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/New_York",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(startsAt));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return insertPaidSession(
    user,
    {
      startsAt,
      date: `${part("year")}-${part("month")}-${part("day")}`,
      time: `${part("hour")}:00`,
    },
    "CONFIRMED",
  );
}

const row = (id: number) =>
  db()
    .select({
      status: bookings.status,
      recordingDate: bookings.recordingDate,
      recordingTime: bookings.recordingTime,
    })
    .from(bookings)
    .where(eq(bookings.id, id))
    .get();

const netPaid = (id: number) =>
  db()
    .select({ amount: payments.amount })
    .from(payments)
    .where(eq(payments.bookingId, id))
    .all()
    .reduce((total, payment) => total + payment.amount, 0);

const outboxKinds = (id: number) =>
  db()
    .select({ kind: emailOutbox.kind })
    .from(emailOutbox)
    .where(eq(emailOutbox.bookingId, id))
    .orderBy(emailOutbox.id)
    .all()
    .map((entry) => entry.kind);

/** Opens My Sessions and follows the row's link (Cancel, Reschedule) for booking `id`. */
async function openRowAction(page: Page, id: number, action: "Cancel" | "Reschedule") {
  await page.goto("/dashboard?tab=bookings");
  await page.locator(`a[href="/dashboard/sessions/${id}/${action.toLowerCase()}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/sessions/${id}/${action.toLowerCase()}`));
}

test.describe("cancelling and rescheduling", () => {
  test.describe.configure({ timeout: 60_000 });

  test("cancelling early refunds everything, shown before confirming", async ({
    page,
    customer,
  }, testInfo) => {
    const { date, time } = dayFor(testInfo, 0);
    const id = sessionOn(customer, date, time, "CONFIRMED");
    await signIn(page, customer);
    await openRowAction(page, id, "Cancel");

    const dialog = page.getByRole("dialog", { name: "Cancel this session?" });
    await expect(dialog).toContainText("you get a full refund");
    await expect(dialog.getByRole("definition").last()).toHaveText("$400.00");
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Cancel and refund $400.00" }).click();

    await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
    await expect(toast(page)).toContainText("Session cancelled");
    await expect(toast(page)).toContainText("$400.00 is refunded to your card");
    expect(row(id)?.status).toBe("CANCELLED");
    expect(netPaid(id)).toBe(0);
    expect(outboxKinds(id)).toContain("booking-cancelled");
  });

  test("cancelling within 24 hours keeps the fee and refunds the rest", async ({
    page,
    customer,
  }) => {
    const id = sessionTomorrow(customer);
    await signIn(page, customer);
    await openRowAction(page, id, "Cancel");

    const dialog = page.getByRole("dialog", { name: "Cancel this session?" });
    await expect(dialog).toContainText("a cancellation fee of 50% of what you paid is kept");
    await expect(dialog).toContainText("−$200.00");
    await dialog.getByRole("button", { name: "Cancel and refund $200.00" }).click();

    await expect(toast(page)).toContainText(
      "$200.00 is refunded to your card; a $200.00 cancellation fee was kept",
    );
    expect(row(id)?.status).toBe("CANCELLED");
    expect(netPaid(id)).toBe(200);
  });

  test("keeping the session changes nothing", async ({ page, customer }, testInfo) => {
    const { date, time } = dayFor(testInfo, 1);
    const id = sessionOn(customer, date, time, "PENDING");
    await signIn(page, customer);
    await openRowAction(page, id, "Cancel");
    if (jsOn(testInfo)) {
      // Escape closes the dialog (once hydrated, it is modal) and gives focus back to the link
      // that leads to it.
      const dialog = page.getByRole("dialog", { name: "Cancel this session?" });
      await expect.poll(() => dialog.evaluate((node) => node.matches(":modal"))).toBe(true);
      await page.keyboard.press("Escape");
      await expect(page.locator(`a[href="/dashboard/sessions/${id}/cancel"]`)).toBeFocused();
    } else {
      await page.getByRole("link", { name: "Keep my session" }).click();
    }
    await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
    expect(row(id)?.status).toBe("PENDING");
    expect(netPaid(id)).toBe(400);
  });

  test(
    "a new date typed before the page's JavaScript runs still shows its free times",
    { tag: "@js-on-only" },
    async ({ page, customer }, testInfo) => {
      const { date, time } = dayFor(testInfo, 2);
      const id = sessionOn(customer, date, time, "CONFIRMED");
      const newDate = addDays(date, 1);
      await signIn(page, customer);
      const release = await holdPageScripts(page);
      const loaded = page.goto(`/dashboard/sessions/${id}/reschedule`);
      const dialog = page.getByRole("dialog", { name: "Reschedule session" });
      await dialog.getByLabel("New date").fill(newDate);
      release();
      await loaded;
      await expect(dialog.getByText(`free start times on ${newDate} for 2 hours`)).toBeVisible();
    },
  );

  test("rescheduling to a free time of another day, with taken times marked", async ({
    page,
    customer,
  }, testInfo) => {
    const { date, time } = dayFor(testInfo, 2);
    const id = sessionOn(customer, date, time, "CONFIRMED");
    const newDate = addDays(date, 1);
    const other = await createUser(testInfo);
    const takenHour = Number(time.slice(0, 2)) + 4;
    const taken = `${String(takenHour).padStart(2, "0")}:00`;
    sessionOn(other, newDate, taken, "CONFIRMED");

    await signIn(page, customer);
    await openRowAction(page, id, "Reschedule");
    const dialog = page.getByRole("dialog", { name: "Reschedule session" });
    // The date picker stops at BOOKING_HORIZON_DAYS.
    await expect(dialog.getByLabel("New date")).toHaveAttribute(
      "max",
      addDays(studioToday(), E2E_BOOKING_HORIZON_DAYS),
    );
    await dialog.getByLabel("New date").fill(newDate);
    if (!jsOn(testInfo)) await dialog.getByRole("button", { name: "Show free times" }).click();
    await expect(dialog.getByText(`free start times on ${newDate} for 2 hours`)).toBeVisible();
    const select = page.getByRole("dialog").getByLabel("Start time");
    await expect(select.locator(`option[value="${taken}"]`)).toBeDisabled();
    await expect(select.locator(`option[value="${taken}"]`)).toContainText("(booked)");
    await expectNoAxeViolations(page);

    await select.selectOption(time);
    await page.getByRole("dialog").getByRole("button", { name: "Move my session" }).click();

    await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
    await expect(toast(page)).toContainText("Session rescheduled");
    expect(row(id)).toMatchObject({
      status: "CONFIRMED",
      recordingDate: newDate,
      recordingTime: time,
    });
    expect(netPaid(id)).toBe(400);
    expect(outboxKinds(id)).toContain("booking-rescheduled");
  });

  test("a session within 24 hours cannot be moved online", async ({ page, customer }) => {
    const id = sessionTomorrow(customer);
    await signIn(page, customer);
    await page.goto(`/dashboard/sessions/${id}/reschedule`);
    await expect(page.getByRole("dialog", { name: "Reschedule session" })).toContainText(
      "Sessions can be rescheduled until 24 hours before they start",
    );
    await expect(page.getByRole("button", { name: "Move my session" })).toHaveCount(0);
  });
});

test.describe("rescheduling, past BOOKING_RATE_LIMIT", () => {
  // A server of its own that allows one booking or move an hour (each project its own server:
  // every browser here is one address).
  test.describe.configure({ mode: "serial", timeout: 60_000 });
  let own: OwnServer | undefined;
  test.beforeAll(async () => {
    own = await startOwnServer({ BOOKING_RATE_LIMIT: "1" });
  });
  test.afterAll(async () => {
    await own?.stop();
  });

  async function move(page: Page, server: OwnServer, id: number, date: string, time: string) {
    await page.goto(`${server.url}/dashboard/sessions/${id}/reschedule`);
    const dialog = page.getByRole("dialog", { name: "Reschedule session" });
    await dialog.getByLabel("New date").fill(date);
    if (!jsOn()) await dialog.getByRole("button", { name: "Show free times" }).click();
    await expect(dialog.getByText(`free start times on ${date} for 2 hours`)).toBeVisible();
    await dialog.getByLabel("Start time").selectOption(time);
    await dialog.getByRole("button", { name: "Move my session" }).click();
    return dialog;
  }

  test("the second move within the hour is refused with the limit's message; nothing written", async ({
    page,
  }, testInfo) => {
    if (!own) throw new Error("The server of this test did not start");
    const customer = await createUser(testInfo, {}, own.db);
    const { date, time } = dayFor(testInfo, 5);
    const session = createBooking(own.db, { user: customer, date, time, status: "CONFIRMED" });
    const read = () => own?.db.select().from(bookings).where(eq(bookings.id, session.id)).get();
    await signIn(page, customer, own.db);

    await move(page, own, session.id, addDays(date, 1), time);
    await expect(toast(page)).toContainText("Session rescheduled");
    expect(read()).toMatchObject({ recordingDate: addDays(date, 1) });

    const dialog = await move(page, own, session.id, addDays(date, 2), time);
    await expect(toast(page)).toContainText("Too Many Changes");
    await expect(
      dialog.getByText(
        /Too many bookings and changes in a short time\. Please try again in 60 minutes\./,
      ),
    ).toBeVisible();
    expect(read()).toMatchObject({ recordingDate: addDays(date, 1), recordingTime: time });
    await expectNoAxeViolations(page);
  });
});
