import type { TestInfo } from "@playwright/test";
import {
  addDays,
  db,
  expect,
  expectNoAxeViolations,
  jsOn,
  signIn,
  studioToday,
  test,
} from "#tests/e2e/fixtures";
import {
  cancelOnlyThis,
  cancelThisAndLater,
  payForSeries,
  seriesGroup,
  statuses,
} from "#tests/e2e/series-steps";
import { createSeries } from "#tests/factories/series";

/**
 * A weekly series after booking (docs/product.md "Weekly series"), with and without JavaScript:
 * from a factory series of 5 unpaid sessions, pay once, cancel one session, cancel the rest.
 * E-mails are checked in the outbox, as the other journeys do. The steps are shared with the
 * booking journey (tests/e2e/series-steps.ts).
 */

/** Days no other journey uses (200+), by project; the hour by worker. */
function firstSlot(testInfo: TestInfo) {
  const hour = 8 + (testInfo.workerIndex % 4) * 2;
  return {
    firstDate: addDays(studioToday(), jsOn(testInfo) ? 200 : 260),
    time: `${String(hour).padStart(2, "0")}:00`,
  };
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
    const group = seriesGroup(page, 5);
    await expect(group).toBeVisible();
    await expect(group.getByRole("row")).toHaveCount(6);
    await expectNoAxeViolations(page);
    await group.getByRole("link", { name: "Pay for the series" }).click();

    // The series checkout: every session with its price and the total; pay once.
    await expect(page).toHaveURL(new RegExp(`/checkout/series/${series.id}$`));
    await payForSeries(page, ids, "$2,000.00");

    // Cancel one session: the second, only it.
    await cancelOnlyThis(page, ids[1] ?? 0, "$400.00");
    expect(statuses(ids)).toEqual(["PENDING", "CANCELLED", "PENDING", "PENDING", "PENDING"]);

    // Cancel the rest: from the third, this and all later ones.
    await cancelThisAndLater(page, ids.slice(2), "$1,200.00");
    expect(statuses(ids)).toEqual(["PENDING", "CANCELLED", "CANCELLED", "CANCELLED", "CANCELLED"]);

    // The group now counts the one session left.
    await page.goto("/dashboard?tab=bookings");
    await expect(seriesGroup(page, 1)).toBeVisible();
  });
});
