import type { Page, TestInfo } from "@playwright/test";
import { inArray } from "drizzle-orm";
import { bookings, emailOutbox, payments } from "#db/schema";
import {
  addDays,
  db,
  expect,
  expectNoAxeViolations,
  jsOn,
  signIn,
  studioToday,
  test,
  toast,
} from "#tests/e2e/fixtures";
import { createSeries } from "#tests/factories/series";

/**
 * A weekly series after booking (docs/product.md "Weekly series"), with and without JavaScript:
 * from a factory series of 5 unpaid sessions, pay once, cancel one session, cancel the rest.
 * E-mails are checked in the outbox, as the other journeys do.
 */
const EXPIRY = `12/${String((new Date().getFullYear() + 5) % 100).padStart(2, "0")}`;

/** Days no other journey uses (200+), by project; the hour by worker. */
function firstSlot(testInfo: TestInfo) {
  const hour = 8 + (testInfo.workerIndex % 4) * 2;
  return {
    firstDate: addDays(studioToday(), jsOn(testInfo) ? 200 : 260),
    time: `${String(hour).padStart(2, "0")}:00`,
  };
}

const statuses = (ids: number[]) =>
  db()
    .select({ status: bookings.status })
    .from(bookings)
    .where(inArray(bookings.id, ids))
    .orderBy(bookings.startsAt)
    .all()
    .map((row) => row.status);

const mails = (ids: number[], kind: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(inArray(emailOutbox.bookingId, ids))
    .all()
    .filter((mail) => mail.kind === kind);

async function cancelFrom(page: Page, id: number) {
  await page.goto("/dashboard?tab=bookings");
  await page.locator(`a[href="/dashboard/sessions/${id}/cancel"]`).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/sessions/${id}/cancel`));
  return page.getByRole("dialog", { name: "Cancel this session?" });
}

test.describe("a weekly series after booking", () => {
  test.describe.configure({ timeout: 90_000 });

  test("pay once, cancel one session, cancel the rest", async ({ page, customer }, testInfo) => {
    const { firstDate, time } = firstSlot(testInfo);
    const { series, bookings: sessions } = createSeries(db(), {
      user: customer,
      firstDate,
      time,
      count: 5,
      hours: 2,
      hourlyRate: 200,
      holdMinutes: 60,
    });
    const ids = sessions.map((session) => session.id);
    await signIn(page, customer);

    // My Sessions: one group with its heading and the series' pay link.
    await page.goto("/dashboard?tab=bookings");
    const group = page.getByRole("region", { name: /Weekly series · \w+days .* · 5 sessions/ });
    await expect(group).toBeVisible();
    await expect(group.getByRole("row")).toHaveCount(6);
    await expectNoAxeViolations(page);
    await group.getByRole("link", { name: "Pay for the series" }).click();

    // The series checkout: every session with its price and the total; pay once.
    await expect(page).toHaveURL(new RegExp(`/checkout/series/${series.id}$`));
    await expect(
      page.getByRole("heading", { level: 1, name: "Pay for your series" }),
    ).toBeVisible();
    await expect(page.getByRole("list", { name: "Sessions" }).getByRole("listitem")).toHaveCount(5);
    await expectNoAxeViolations(page);
    await page.getByLabel("Cardholder name").fill("Ada Lovelace");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiration date").fill(EXPIRY);
    await page.getByLabel("CVV").fill("123");
    await page.getByRole("button", { name: "Pay $2,000.00" }).click();
    await expect(page).toHaveURL(/\/booking-success\?session_id=sandbox_/);
    await expect(
      page.getByRole("heading", { level: 1, name: "Payment Successful!" }),
    ).toBeVisible();
    expect(statuses(ids)).toEqual(Array(5).fill("PENDING"));
    expect(db().select().from(payments).where(inArray(payments.bookingId, ids)).all()).toHaveLength(
      5,
    );
    const paid = mails(ids, "payment-received");
    expect(paid).toHaveLength(1);
    for (const id of ids) expect(paid[0]?.text).toContain(`#${id}:`);

    // Cancel one session: the second, only it.
    const second = ids[1] ?? 0;
    const one = await cancelFrom(page, second);
    await expect(one.getByRole("radio", { name: /Only this session/ })).toBeChecked();
    await expectNoAxeViolations(page);
    await one.getByRole("button", { name: "Confirm cancellation" }).click();
    await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
    await expect(toast(page)).toContainText("Session cancelled");
    expect(statuses(ids)).toEqual(["PENDING", "CANCELLED", "PENDING", "PENDING", "PENDING"]);

    // Cancel the rest: from the third, this and all later ones.
    const third = ids[2] ?? 0;
    const rest = await cancelFrom(page, third);
    await rest.getByRole("radio", { name: /This and all later sessions \(3\)/ }).check();
    await rest.getByRole("button", { name: "Confirm cancellation" }).click();
    await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
    await expect(toast(page)).toContainText("3 sessions are cancelled.");
    await expect(toast(page)).toContainText("$1,200.00 is refunded to your card");
    expect(statuses(ids)).toEqual(["PENDING", "CANCELLED", "CANCELLED", "CANCELLED", "CANCELLED"]);
    const cancelled = mails(ids.slice(2), "booking-cancelled");
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]?.subject).toContain("3 sessions of your series cancelled");

    // The group now counts the one session left.
    await page.goto("/dashboard?tab=bookings");
    await expect(
      page.getByRole("region", { name: /Weekly series · \w+days .* · 1 session$/ }),
    ).toBeVisible();
  });
});
