import type { Locator, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { bookings } from "#db/schema";
import {
  addDays,
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  jsOn,
  signIn,
  studioToday,
  test,
  toast,
} from "#tests/e2e/fixtures";
import {
  cancelOnlyThis,
  cancelThisAndLater,
  expectSeriesPaid,
  mails,
  payForSeries,
  seriesGroup,
  statuses,
} from "#tests/e2e/series-steps";
import { createBooking } from "#tests/factories/booking";

/**
 * A weekly series from the form on / to its end (docs/product.md "Weekly series"), with
 * JavaScript on and off: the preview of every session, a taken week shown with the nearest
 * free times of its day, refused until it is left out, then the other five booked at once;
 * paid once at the series checkout, one session cancelled, then the rest. The steps after
 * booking are shared with the factory-series journey (tests/e2e/series-steps.ts).
 */
const CONFLICTS =
  "Some sessions of this series cannot be booked. Leave out the taken dates or choose another time.";

function bookingForm(page: Page): Locator {
  return page.locator("#booking-form");
}

function seriesOf(userId: number) {
  return db()
    .select()
    .from(bookings)
    .where(eq(bookings.userId, userId))
    .orderBy(bookings.startsAt)
    .all();
}

/** "Tue, Jun 2, 2026", as the preview writes a studio date. */
function day(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString("en-US", {
    weekday: "short",
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
}

test("a 6-week series with one taken week: leave it out, book 5, pay once, cancel one, cancel the rest", async ({
  page,
  customer,
}, testInfo) => {
  // Booking, paying and two cancellations, with axe on every page state.
  test.setTimeout(180_000);
  // Days of their own, far past every other journey's (js-on and js-off apart).
  const first = addDays(studioToday(), jsOn() ? 400 : 500);
  const dates = Array.from({ length: 6 }, (_, week) => addDays(first, 7 * week));
  const taken = dates[2] as string;
  const other = await createUser(testInfo);
  createBooking(db(), { user: other, date: taken, time: "18:00", hours: 4 });

  await signIn(page, customer);
  await page.goto("/#booking");
  const form = bookingForm(page);
  await form.scrollIntoViewIfNeeded();
  if (jsOn()) await expect(form.locator('input[name="_hydrated"]')).toBeAttached();

  await form.getByLabel("Recording date").fill(first);
  await form.getByLabel("Hours", { exact: true }).selectOption("2");
  if (!jsOn()) {
    await page.getByRole("button", { name: "Show free times and update the price" }).click();
  }
  await expect(form.getByLabel("Start time", { exact: true })).toHaveAccessibleDescription(
    new RegExp(`free start times? on ${first} for 2 hours`),
  );
  await form.getByLabel("Start time", { exact: true }).selectOption("19:00");
  await form.getByRole("combobox", { name: "Repeat", exact: true }).selectOption("week");
  await form.getByLabel("How many sessions").selectOption("6");
  if (!jsOn()) await form.getByRole("button", { name: "Check dates" }).click();

  // The preview: every session, the taken one with the nearest free times of its day.
  const preview = form.getByTestId("series-preview");
  await expect(preview.getByRole("listitem")).toHaveCount(6);
  for (const date of dates) {
    const item = preview.locator(`li[data-date="${date}"]`);
    await expect(item).toContainText(day(date));
    await expect(item).toContainText(date === taken ? "Taken" : "Free");
  }
  await expect(preview.locator(`li[data-date="${taken}"]`)).toContainText(
    "Nearest free times that day: 4:00 PM, 10:00 PM, 3:00 PM",
  );
  await expectNoAxeViolations(page);

  // Booking with the taken week still in: refused, the preview shown again, nothing written.
  await form.getByRole("button", { name: "Book and Continue to Payment" }).click();
  await expect(toast(page)).toContainText("Dates Unavailable");
  await expect(form.getByText(CONFLICTS)).toBeVisible();
  await expect(preview.getByRole("listitem")).toHaveCount(6);
  expect(seriesOf(customer.id)).toEqual([]);

  // Leave it out and book the other five.
  await form.getByRole("checkbox", { name: `Leave out ${day(taken)}` }).check();
  await form.getByRole("button", { name: "Book and Continue to Payment" }).click();
  await expect(page).toHaveURL(/\/checkout\/series\/\d+#main$/);
  const seriesId = Number(new URL(page.url()).pathname.split("/").pop());

  const rows = seriesOf(customer.id);
  expect(rows.map((row) => row.recordingDate)).toEqual(dates.filter((date) => date !== taken));
  for (const row of rows) {
    expect(row).toMatchObject({
      orderId: seriesId,
      recordingTime: "19:00",
      hoursNeeded: "2",
      status: "PENDING_PAYMENT",
      totalCost: 400,
    });
  }

  const ids = rows.map((row) => row.id);
  const received = mails(ids, "booking-received");
  expect(received).toHaveLength(1);
  expect(received[0]?.subject).toBe("Complete your booking: pay $2,000.00 to keep your 5 sessions");

  // Pay once for the five, on the page the booking led to; My Sessions shows them paid.
  await payForSeries(page, ids, "$2,000.00");
  await expectSeriesPaid(page, 5);

  // Cancel one session: the second, only it. The group counts the four not cancelled and
  // keeps the cancelled one in its place, marked (docs/product.md "Client dashboard").
  await cancelOnlyThis(page, ids[1] ?? 0, "$400.00");
  expect(statuses(ids)).toEqual(["PENDING", "CANCELLED", "PENDING", "PENDING", "PENDING"]);
  await expectGroupRows(seriesGroup(page, 4), [
    "Pending Review",
    "Cancelled",
    "Pending Review",
    "Pending Review",
    "Pending Review",
  ]);

  // Cancel the rest: from the third, this and all later ones; the first alone is left.
  await cancelThisAndLater(page, ids.slice(2), "$1,200.00");
  expect(statuses(ids)).toEqual(["PENDING", "CANCELLED", "CANCELLED", "CANCELLED", "CANCELLED"]);
  await expectGroupRows(seriesGroup(page, 1), [
    "Pending Review",
    "Cancelled",
    "Cancelled",
    "Cancelled",
    "Cancelled",
  ]);
});

/** The group's session rows, soonest first, by their status label; only live ones cancellable. */
async function expectGroupRows(group: Locator, labels: string[]) {
  await expect(group).toBeVisible();
  const rows = group.getByRole("rowgroup").last().getByRole("row");
  await expect(rows).toHaveCount(labels.length);
  for (const [index, label] of labels.entries()) {
    const row = rows.nth(index);
    await expect(row.getByRole("cell").nth(3)).toContainText(label);
    await expect(row.getByRole("link", { name: /^Cancel/ })).toHaveCount(
      label === "Cancelled" ? 0 : 1,
    );
  }
}
