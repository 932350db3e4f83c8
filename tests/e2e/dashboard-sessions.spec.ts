import { readFile } from "node:fs/promises";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { bookings } from "#db/schema";
import type { BookingStatus } from "#app/domain/booking-status";
import { studioSession } from "#app/domain/studio-time";
import {
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  login,
  type TestUser,
  test,
  toast,
  addDays,
  jsOn,
  studioToday,
  signIn,
  tabLink,
} from "#tests/e2e/fixtures";
import { createBooking } from "#tests/factories/booking";

/**
 * The customer's own space (docs/product.md "Client dashboard", "Cancel, refund, reschedule",
 * "Download Details"): My Sessions' upcoming and past tables, Session
 * Details with its calendar file and printable page, and Pay Now from the dashboard. Sessions
 * are written straight into the database, past ones included. Runs with JavaScript on and off.
 */

/** December, five years on: always a valid expiry. */
const EXPIRY = `12/${String((new Date().getFullYear() + 5) % 100).padStart(2, "0")}`;

/** "Nov 25, 2026" for a studio day, as the dashboard writes it. */
function shortDate(date: string): string {
  return new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T12:00:00Z`));
}

/** "Tuesday, November 24, 2026", as Session Details writes it. */
function longDate(date: string): string {
  return new Intl.DateTimeFormat("en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T12:00:00Z`));
}

/**
 * Future days no other journey of the suite books (booking.spec.ts uses 10-39 days ahead): 150
 * and more days out, apart per project and journey, an afternoon hour per worker.
 */
function futureSlot(testInfo: TestInfo, journey: number, extraDays = 0) {
  const projectDays = testInfo.project.name === "js-off" ? 40 : 0;
  const hour = 14 + (testInfo.workerIndex % 4) * 2;
  return {
    date: addDays(studioToday(), 150 + projectDays + journey * 4 + extraDays),
    time: `${hour}:00`,
  };
}

type Seed = {
  date: string;
  time: string;
  hours?: number;
  guests?: number;
  status?: BookingStatus;
  total?: number;
  original?: number;
  discount?: number;
  couponCode?: string | null;
  holdMinutes?: number;
};

/** A session of `user` written straight into SQLite. */
function insertSession(user: TestUser, seed: Seed): number {
  const totalCost = seed.total ?? (seed.hours ?? 2) * 200;
  return createBooking(db(), {
    user,
    date: seed.date,
    time: seed.time,
    hours: seed.hours ?? 2,
    guestCount: String(seed.guests ?? 1),
    status: seed.status ?? "CONFIRMED",
    totalCost,
    originalCost: seed.original ?? totalCost,
    discountAmount: seed.discount ?? 0,
    couponCode: seed.couponCode ?? null,
    holdMinutes: seed.holdMinutes ?? 30,
  }).id;
}

function bookingStatus(id: number): string | undefined {
  return db().select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)).get()
    ?.status;
}

function sessionsTable(page: Page, name: "Upcoming Sessions" | "Past Sessions"): Locator {
  return page.getByRole("table", { name });
}

/** The table row of booking `id` (its View/Pay Now link names the booking number). */
function rowOf(page: Page, id: number): Locator {
  return page.getByRole("row").filter({
    has: page.getByRole("link", { name: new RegExp(`session #${id} on`) }),
  });
}

async function openMySessions(page: Page, list: "upcoming" | "past" = "upcoming") {
  await page.goto(`/dashboard?tab=bookings${list === "past" ? "&list=past" : ""}`);
  await expect(tabLink(page, "My Sessions")).toHaveAttribute("aria-current", "page");
}

test.describe("my sessions", () => {
  // Sign-in, the landing page and a dialog or two on a two-core machine.
  test.describe.configure({ timeout: 60_000 });

  test("upcoming and past sessions, in order, with their actions", async ({
    page,
    customer,
  }, testInfo) => {
    const later = futureSlot(testInfo, 0, 2);
    const sooner = futureSlot(testInfo, 0);
    const laterId = insertSession(customer, {
      ...later,
      hours: 3,
      guests: 2,
      total: 480,
      original: 600,
      discount: 120,
      couponCode: "SAVE20",
    });
    const soonerId = insertSession(customer, { ...sooner, status: "PENDING_PAYMENT" });
    const lastWeek = addDays(studioToday(), -7);
    const lastYear = addDays(studioToday(), -300);
    const recentPastId = insertSession(customer, {
      date: lastWeek,
      time: "10:00",
      status: "COMPLETED",
    });
    const oldPastId = insertSession(customer, {
      date: lastYear,
      time: "10:00",
      status: "CANCELLED",
    });
    // Someone else's session is nobody's business here.
    const stranger = await createUser(testInfo, { firstName: "Stranger" });
    const strangerId = insertSession(stranger, futureSlot(testInfo, 0, 1));

    await signIn(page, customer);
    await openMySessions(page);
    const sessions = page.getByRole("navigation", { name: "Sessions" });
    await expect(sessions.getByRole("link", { name: /Upcoming Sessions/ })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const upcoming = sessionsTable(page, "Upcoming Sessions");
    await expect(upcoming).toBeVisible();
    for (const header of ["Date & Time", "Duration", "Guests", "Status", "Total", "Actions"]) {
      await expect(upcoming.getByRole("columnheader", { name: header })).toBeAttached();
    }
    // Soonest first.
    const rows = upcoming.locator("tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(shortDate(sooner.date));
    await expect(rows.nth(1)).toContainText(shortDate(later.date));
    await expect(page.getByRole("link", { name: new RegExp(`#${strangerId} on`) })).toHaveCount(0);

    const unpaid = rowOf(page, soonerId);
    await expect(unpaid).toContainText("Pending Payment");
    await expect(unpaid).toContainText("$400.00");
    await expect(unpaid.getByRole("link", { name: /^Pay Now/ })).toHaveAttribute(
      "href",
      `/dashboard/sessions/${soonerId}/pay`,
    );
    await expect(unpaid.getByRole("link", { name: /^View/ })).toHaveCount(0);

    const confirmed = rowOf(page, laterId);
    await expect(confirmed).toContainText("Confirmed");
    await expect(confirmed).toContainText("3 hours");
    await expect(confirmed).toContainText("$480.00");
    await expect(confirmed).toContainText("−$120.00 discount");
    await expect(
      confirmed.getByRole("link", {
        name: `View session #${laterId} on ${shortDate(later.date)}`,
      }),
    ).toHaveAttribute("href", `/dashboard/sessions/${laterId}`);
    await expect(confirmed.getByRole("link", { name: /^Cancel session/ })).toHaveAttribute(
      "href",
      `/dashboard/sessions/${laterId}/cancel`,
    );
    await expect(confirmed.getByRole("link", { name: /^Reschedule session/ })).toHaveAttribute(
      "href",
      `/dashboard/sessions/${laterId}/reschedule`,
    );
    await expectNoAxeViolations(page);

    await sessions.getByRole("link", { name: /Past Sessions/ }).click();
    await expect(page).toHaveURL(/[?&]list=past/);
    const past = sessionsTable(page, "Past Sessions");
    await expect(past).toBeVisible();
    const pastRows = past.locator("tbody tr");
    await expect(pastRows).toHaveCount(2);
    // Most recent first, View only.
    await expect(pastRows.nth(0)).toContainText(shortDate(lastWeek));
    await expect(pastRows.nth(0)).toContainText("Completed");
    await expect(pastRows.nth(1)).toContainText(shortDate(lastYear));
    await expect(pastRows.nth(1)).toContainText("Cancelled");
    for (const id of [recentPastId, oldPastId]) {
      await expect(rowOf(page, id).getByRole("link")).toHaveCount(1);
      await expect(rowOf(page, id).getByRole("link")).toHaveAccessibleName(/^View session/);
    }
    await expectNoAxeViolations(page);

    // A past session's details close back to Past Sessions.
    await rowOf(page, recentPastId)
      .getByRole("link", { name: /^View session/ })
      .click();
    const details = page.getByRole("dialog", { name: "Session Details" });
    await expect(details).toContainText(`Booking #${recentPastId}`);
    await expect(details).toContainText("Completed");
    await expect(details.getByRole("link", { name: "Request Cancellation" })).toHaveCount(0);
    await details.getByRole("link", { name: "Close", exact: true }).last().click();
    await expect(page).toHaveURL(/\/dashboard\?tab=bookings&list=past$/);
    await expect(sessionsTable(page, "Past Sessions")).toBeVisible();
  });

  test("a new customer sees the empty lists", async ({ page, customer }) => {
    await signIn(page, customer);
    await openMySessions(page);
    await expect(page.getByText("No upcoming sessions")).toBeVisible();
    await openMySessions(page, "past");
    await expect(page.getByText("No past sessions")).toBeVisible();
  });

  test("shows an active retainer's window and hours", async ({ page, customer }) => {
    const start = addDays(studioToday(), -2);
    const end = addDays(start, 30);
    createBooking(db(), {
      user: customer,
      date: start,
      time: "10:00",
      hours: 3,
      totalCost: 999,
      isRetainer: true,
      retainerStartDate: start,
      retainerEndDate: end,
      retainerHoursUsed: 3,
      retainerTotalHours: 8,
    });
    await signIn(page, customer);
    await openMySessions(page);
    const retainer = page.getByRole("region", { name: "Retainer package" });
    await expect(retainer).toContainText(`${shortDate(start)} – ${shortDate(addDays(end, -1))}`);
    await expect(retainer).toContainText("5 hours left");
    await expect(retainer).toContainText("3 of 8 hours used");
  });

  test("stays usable at 320 px", async ({ page, customer }, testInfo) => {
    const slot = futureSlot(testInfo, 1);
    const id = insertSession(customer, slot);
    await page.setViewportSize({ width: 320, height: 720 });
    await signIn(page, customer);
    await openMySessions(page);
    const row = rowOf(page, id);
    await expect(row).toContainText(shortDate(slot.date));
    const view = row.getByRole("link", { name: /^View session/ });
    await view.scrollIntoViewIfNeeded();
    await expect(view).toBeInViewport({ ratio: 1 });
    // The rows stack: the table is no wider than the screen.
    const box = await sessionsTable(page, "Upcoming Sessions").boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(320);
    await expectNoAxeViolations(page);
  });
});

test.describe("session details", () => {
  test.describe.configure({ timeout: 60_000 });

  test("shows a session, downloads its calendar file and prints it", async ({ page }, testInfo) => {
    const customer = await createUser(testInfo, { businessName: "Analytical Audio" });
    const slot = futureSlot(testInfo, 2);
    const id = insertSession(customer, {
      ...slot,
      hours: 2,
      guests: 3,
      total: 320,
      original: 400,
      discount: 80,
      couponCode: "SPRING",
    });
    const { startsAt, endsAt } = studioSession(slot.date, slot.time, 2);

    await signIn(page, customer);
    await openMySessions(page);
    await rowOf(page, id)
      .getByRole("link", { name: /^View session/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/sessions/${id}$`));
    const dialog = page.getByRole("dialog", { name: "Session Details" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Booking #${id}`);
    await expect(dialog).toContainText("Confirmed");
    await expect(dialog).toContainText(longDate(slot.date));
    await expect(dialog).toContainText("675 Ponce de Leon Ave NE");
    await expect(dialog).toContainText("2 hours");
    await expect(dialog).toContainText("3 guests");
    await expect(dialog).toContainText("$200.00/hour");
    await expect(dialog).toContainText("Discount (SPRING)");
    await expect(dialog).toContainText("−$80.00");
    await expect(dialog).toContainText(/Total\s*\$320\.00/);
    await expect(dialog).toContainText("No payments yet.");
    await expect(dialog).toContainText(customer.fullName);
    await expect(dialog).toContainText("Analytical Audio");
    await expect(dialog).toContainText(customer.email);
    await expect(dialog.getByRole("link", { name: "Request Cancellation" })).toHaveAttribute(
      "href",
      `/dashboard/sessions/${id}/cancel`,
    );
    await expectNoAxeViolations(page);

    // Download Details: the calendar file, at the session's own instants.
    const calendarLink = dialog.getByRole("link", { name: "Add to calendar (.ics)" });
    const [download] = await Promise.all([page.waitForEvent("download"), calendarLink.click()]);
    expect(download.suggestedFilename()).toBe(`studio-session-${id}.ics`);
    const file = await download.path();
    const text = await readFile(file, "utf8");
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent") ?? undefined,
    );
    expect(event.startDate.toJSDate().getTime()).toBe(startsAt);
    expect(event.endDate.toJSDate().getTime()).toBe(endsAt);
    expect(event.location).toContain("675 Ponce de Leon Ave NE");

    // ...and the printable page.
    await dialog.getByRole("link", { name: "Printable page" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/sessions/${id}/print$`));
    await expect(
      page.getByRole("heading", { level: 1, name: `Session on ${shortDate(slot.date)}` }),
    ).toBeVisible();
    await expect(page.getByText(`Booking #${id}`)).toBeVisible();
    if (jsOn()) {
      await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
    } else {
      await expect(page.getByText("Use your browser's Print command")).toBeVisible();
    }
    await expectNoAxeViolations(page);
    // On paper: the sheet alone, without the site's navigation, footer or buttons.
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(page.getByRole("contentinfo")).toBeHidden();
    await expect(page.getByRole("link", { name: "Back to Session Details" })).toBeHidden();
    await expect(page.getByText(`Booking #${id}`)).toBeVisible();
    await page.emulateMedia({ media: "screen" });

    // Close goes back to the list.
    await page.goto(`/dashboard/sessions/${id}`);
    await page
      .getByRole("dialog", { name: "Session Details" })
      .getByRole("link", { name: "Close", exact: true })
      .last()
      .click();
    await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
    await expect(page.getByRole("dialog", { name: "Session Details" })).toHaveCount(0);
  });

  test("another customer's session is not found", async ({ page, customer }, testInfo) => {
    const owner = await createUser(testInfo);
    const id = insertSession(owner, futureSlot(testInfo, 3));
    await login(page, customer);
    for (const path of [
      `/dashboard/sessions/${id}`,
      `/dashboard/sessions/${id}/pay`,
      `/dashboard/sessions/${id}/print`,
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    }
    const ics = await page.request.get(`/api/bookings/${id}/ics`);
    expect(ics.status()).toBe(404);
  });
});

test.describe("pay now", () => {
  test.describe.configure({ timeout: 60_000 });

  test("pays a pending session from the dashboard", async ({ page, customer }, testInfo) => {
    const slot = futureSlot(testInfo, 4);
    const id = insertSession(customer, { ...slot, status: "PENDING_PAYMENT", total: 400 });

    await signIn(page, customer);
    await openMySessions(page);
    await rowOf(page, id)
      .getByRole("link", { name: /^Pay Now/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/sessions/${id}/pay$`));
    const dialog = page.getByRole("dialog", { name: "Complete Your Payment" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Booking #${id}`);
    await expect(dialog).toContainText("$400.00");
    await expect(dialog).toContainText("We hold this time slot for you until");
    await expectNoAxeViolations(page);

    await dialog.getByLabel("Cardholder name").fill("Ada Lovelace");
    await dialog.getByLabel("Card number").fill("4242 4242 4242 4242");
    await dialog.getByLabel("Expiration date").fill(EXPIRY);
    await dialog.getByLabel("CVV").fill("123");
    await dialog.getByRole("button", { name: "Pay $400.00" }).click();

    await expect(page).toHaveURL(new RegExp(`/dashboard\\?tab=bookings&paid=${id}$`));
    await expect(toast(page)).toContainText("Payment Successful!");
    await expect(toast(page)).toContainText("Your booking has been confirmed.");
    const paid = page.getByRole("dialog", { name: "Payment received" });
    await expect(paid).toBeVisible();
    await expect(paid).toContainText("Pending Review");
    await expect(paid).toContainText("e-mail confirmation");
    expect(bookingStatus(id)).toBe("PENDING");
    await expectNoAxeViolations(page);

    await paid.getByRole("link", { name: "OK" }).click();
    await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
    await expect(page.getByRole("dialog", { name: "Payment received" })).toHaveCount(0);
    const row = rowOf(page, id);
    await expect(row).toContainText("Pending Review");
    await expect(row.getByRole("link", { name: /^Pay Now/ })).toHaveCount(0);
    // The payment is listed in the session's details, by brand and last 4 digits only.
    await row.getByRole("link", { name: /^View session/ }).click();
    const details = page.getByRole("dialog", { name: "Session Details" });
    await expect(details).toContainText("Payment · Visa •••• 4242");
    await expect(details.getByRole("listitem").filter({ hasText: "Visa" })).toContainText(
      "$400.00",
    );

    // The confirmation never claims a payment that did not happen.
    const unpaidId = insertSession(customer, {
      ...futureSlot(testInfo, 4, 1),
      status: "PENDING_PAYMENT",
    });
    await page.goto(`/dashboard?tab=bookings&paid=${unpaidId}`);
    await expect(page.getByRole("heading", { name: /Welcome back/ })).toBeVisible();
    await expect(page.getByRole("dialog", { name: "Payment received" })).toHaveCount(0);
  });

  test("a declined card says why and keeps the session payable", async ({
    page,
    customer,
  }, testInfo) => {
    const id = insertSession(customer, { ...futureSlot(testInfo, 5), status: "PENDING_PAYMENT" });
    await signIn(page, customer);
    await page.goto(`/dashboard/sessions/${id}/pay`);
    const dialog = page.getByRole("dialog", { name: "Complete Your Payment" });
    await dialog.getByLabel("Cardholder name").fill("Ada Lovelace");
    await dialog.getByLabel("Card number").fill("4000 0000 0000 0002");
    await dialog.getByLabel("Expiration date").fill(EXPIRY);
    await dialog.getByLabel("CVV").fill("123");
    await dialog.getByRole("button", { name: "Pay $400.00" }).click();
    await expect(toast(page)).toContainText("Payment Failed");
    await expect(page.getByRole("dialog", { name: "Complete Your Payment" })).toContainText(
      "Your card was declined. Please use a different card.",
    );
    expect(bookingStatus(id)).toBe("PENDING_PAYMENT");
  });

  test("a session that cannot be paid says why", async ({ page, customer }, testInfo) => {
    // A hold that has already run out.
    const id = insertSession(customer, {
      ...futureSlot(testInfo, 6),
      status: "PENDING_PAYMENT",
      holdMinutes: -1,
    });
    await signIn(page, customer);
    await page.goto(`/dashboard/sessions/${id}/pay`);
    const dialog = page.getByRole("dialog", { name: "Complete Your Payment" });
    await expect(dialog).toContainText("The hold on this time slot has run out");
    await expect(dialog.getByLabel("Card number")).toHaveCount(0);
    await expectNoAxeViolations(page);
    // The list no longer offers it for payment.
    await openMySessions(page);
    await expect(rowOf(page, id)).toContainText("Cancelled");
    await expect(rowOf(page, id).getByRole("link", { name: /^Pay Now/ })).toHaveCount(0);

    // A $0 session is never offered Pay Now, even if it somehow waits for payment.
    const freeId = insertSession(customer, {
      ...futureSlot(testInfo, 6, 1),
      status: "PENDING_PAYMENT",
      total: 0,
    });
    await openMySessions(page);
    await expect(rowOf(page, freeId)).toContainText("$0.00");
    await expect(rowOf(page, freeId).getByRole("link", { name: /^Pay Now/ })).toHaveCount(0);
    await expect(rowOf(page, freeId).getByRole("link", { name: /^View session/ })).toBeVisible();
    await page.goto(`/dashboard/sessions/${freeId}/pay`);
    await expect(page.getByRole("dialog", { name: "Complete Your Payment" })).toContainText(
      "This booking is free: there is nothing to pay.",
    );
  });
});
