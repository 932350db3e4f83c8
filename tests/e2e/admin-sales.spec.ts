import { readFile } from "node:fs/promises";
import type { Page, TestInfo } from "@playwright/test";
import type { Booking } from "#db/schema";
import { studioInstant } from "#app/domain/studio-time";
import { adminDay } from "#tests/e2e/admin-data";
import {
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  jsOn,
  type TestUser,
  test,
  toast,
  signIn,
} from "#tests/e2e/fixtures";
import { createBooking } from "#tests/factories/booking";
import { createPayment } from "#tests/factories/payment";

/**
 * The Sales tab (docs/product.md "Sales tab", "Sales figures"): a custom range shows
 * exactly this test's payments (written straight into SQLite on days decades back that no other
 * test uses), their totals net of refunds, the chart, the CSV with the same rows, Refresh, the
 * empty text and a refused range. Runs with JavaScript on and off.
 */

/** A studio day of this journey's own, 40 years back: nobody else's payments are there. */
function salesDay(testInfo: TestInfo, journey: number): string {
  const day = adminDay(testInfo, 2, journey);
  return `${Number(day.slice(0, 4)) - 40}${day.slice(4)}`;
}

function paidBooking(user: TestUser, stakeholder: string): Booking {
  return createBooking(db(), { user, date: "2026-01-05", stakeholder, status: "COMPLETED" });
}

function payment(booking: Booking, amount: number, at: number) {
  createPayment(db(), { booking, amount, paymentDate: at });
}

async function openRange(page: Page, from: string, to: string) {
  await page.goto("/admin/sales");
  await page.getByLabel("Period").selectOption({ label: "Custom Range" });
  await page.getByLabel("From", { exact: true }).fill(from);
  await page.getByLabel("To", { exact: true }).fill(to);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`period=custom&from=${from}&to=${to}`));
}

const total = (page: Page, label: string) => page.locator("dl > div", { hasText: label });

test("an admin sees a period's sales, its chart and its CSV, and refreshes", async ({
  page,
  admin,
}, testInfo) => {
  const day = salesDay(testInfo, 0);
  const stakeholder = await createUser(testInfo, { firstName: "Stella" });
  const member = await createUser(testInfo, { firstName: "Mona", isMember: true });
  const plain = await createUser(testInfo, { firstName: "Nico" });
  const stakeholderBooking = paidBooking(stakeholder, "yes");
  payment(stakeholderBooking, 300, studioInstant(day, "00:00"));
  payment(paidBooking(member, "no"), 400, studioInstant(day, "12:15"));
  payment(paidBooking(plain, "no"), 200, studioInstant(day, "18:00"));
  payment(stakeholderBooking, -100, studioInstant(day, "23:30"));

  await signIn(page, admin);
  await openRange(page, day, day);
  await expect(page.getByRole("heading", { name: "Sales Dashboard" })).toBeVisible();
  await expect(page.getByText("Track performance and revenue metrics")).toBeVisible();
  await expect(total(page, "Total Sales")).toContainText("$800.00");
  await expect(total(page, "Stakeholder Sales")).toContainText("$200.00");
  await expect(total(page, "Non-Member Sales")).toContainText("$200.00");

  const rows = page.getByRole("region", { name: "Payments" }).getByRole("row");
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(1)).toContainText(stakeholder.fullName);
  await expect(rows.nth(1)).toContainText("-$100.00");
  await expect(rows.nth(2)).toContainText(plain.fullName);
  await expect(rows.nth(2)).toContainText("Non-Member");
  await expect(rows.nth(3)).toContainText(member.fullName);
  await expect(rows.nth(3)).toContainText("12:15 PM");
  await expect(rows.nth(3)).toContainText("Member");
  await expect(rows.nth(4)).toContainText("Stakeholder");

  await expect(page.getByRole("img", { name: /Revenue by day/ })).toBeVisible();
  await page.getByText("Chart figures").click();
  await expect(page.getByRole("region", { name: "Chart figures" })).toContainText("$800.00");
  await expectNoAxeViolations(page);
  if (jsOn(testInfo)) {
    // 320 px wide: the page never scrolls sideways (the table scrolls inside its region).
    await page.setViewportSize({ width: 320, height: 800 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(320);
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`sales-custom-${day}-to-${day}.csv`);
  const csv = await readFile((await download.path()) ?? "", "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe(
    "Payment ID,Booking ID,Date (Atlanta time),Client,Type,Amount (USD),Method",
  );
  expect(lines.slice(1).map((line) => line.split(",").slice(2))).toEqual([
    [`${day} 23:30:00`, stakeholder.fullName, "Stakeholder", "-100", "refund"],
    [`${day} 18:00:00`, plain.fullName, "Non-Member", "200", "card"],
    [`${day} 12:15:00`, member.fullName, "Member", "400", "card"],
    [`${day} 00:00:00`, stakeholder.fullName, "Stakeholder", "300", "card"],
  ]);

  const before = page.url();
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(toast(page)).toContainText("Data refreshed");
  expect(page.url()).toBe(before);
  await expect(total(page, "Total Sales")).toContainText("$800.00");
});

test("a period without payments says so, and a backwards range is refused at its field", async ({
  page,
  admin,
}, testInfo) => {
  const day = salesDay(testInfo, 1);
  await signIn(page, admin);
  await openRange(page, day, day);
  await expect(page.getByText("No payments found for the selected time period")).toBeVisible();
  await expect(total(page, "Total Sales")).toContainText("$0.00");
  await expect(page.getByRole("img", { name: /Revenue/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.getByLabel("From", { exact: true }).fill(salesDay(testInfo, 2));
  await page.getByRole("button", { name: "Apply" }).click();
  const to = page.getByLabel("To", { exact: true });
  await expect(to).toHaveAccessibleDescription(/The end date must be on or after the start date/);
  await expect(page.getByText("Total Sales")).toHaveCount(0);
  await expectNoAxeViolations(page);
});
