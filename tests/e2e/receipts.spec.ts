import { readFile } from "node:fs/promises";
import type { Locator, Page, TestInfo } from "@playwright/test";
import {
  addDays,
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  signIn,
  studioToday,
  test,
  type TestUser,
} from "#tests/e2e/fixtures";
import { createBooking } from "#tests/factories/booking";
import { pdfWords } from "#tests/setup/pdf-text";

/**
 * Receipts (docs/product.md "Receipts"): a customer pays a session from My Sessions, downloads
 * its receipt from Session Details, and staff download the same receipt from the booking's
 * admin page; both files are read back with pdftotext. Runs with JavaScript on and off.
 */

/** December, five years on: always a valid expiry. */
const EXPIRY = `12/${String((new Date().getFullYear() + 5) % 100).padStart(2, "0")}`;

/** Days no other journey books: 600 and more days out, apart per project and worker. */
function farSlot(testInfo: TestInfo) {
  const projectDays = testInfo.project.name === "js-off" ? 20 : 0;
  return {
    date: addDays(studioToday(), 600 + projectDays + testInfo.workerIndex * 3),
    time: "10:00",
  };
}

/** An unpaid two-hour session of `user` at $150 an hour, written straight into SQLite. */
function unpaidSession(user: TestUser, testInfo: TestInfo): number {
  return createBooking(db(), {
    user,
    ...farSlot(testInfo),
    hours: 2,
    hourlyRate: 150,
    totalCost: 300,
    originalCost: 300,
    status: "PENDING_PAYMENT",
  }).id;
}

/** Clicks a download link and returns the file's name and its text as pdftotext reads it. */
async function download(page: Page, link: Locator) {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: pdfWords(await readFile(path)) };
}

test.describe("receipts", () => {
  test.describe.configure({ timeout: 60_000 });

  test("a customer pays and downloads the receipt; staff download it from the booking's page", async ({
    page,
    browser,
    admin,
  }, testInfo) => {
    const customer = await createUser(testInfo, { businessName: "Analytical Audio" });
    const id = unpaidSession(customer, testInfo);

    await signIn(page, customer);
    await page.goto(`/dashboard/sessions/${id}/pay`);
    const pay = page.getByRole("dialog", { name: "Complete Your Payment" });
    await pay.getByLabel("Cardholder name").fill("Ada Lovelace");
    await pay.getByLabel("Card number").fill("4242 4242 4242 4242");
    await pay.getByLabel("Expiration date").fill(EXPIRY);
    await pay.getByLabel("CVV").fill("123");
    await pay.getByRole("button", { name: "Pay $300.00" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?tab=bookings&paid=${id}$`));

    // My Sessions: Session Details lists the receipt.
    await page.goto(`/dashboard/sessions/${id}`);
    const details = page.getByRole("dialog", { name: "Session Details" });
    const receipts = details.getByRole("region", { name: "Receipts" });
    await expect(receipts).toContainText(/\$300\.00 paid on/);
    const link = receipts.getByRole("link", { name: /^Receipt \d{4}-\d{6} \(PDF\)$/ });
    await expect(link).toHaveCount(1);
    await expectNoAxeViolations(page);
    const mine = await download(page, link);
    const number = /\d{4}-\d{6}/.exec(mine.name)?.[0];
    expect(mine.name).toBe(`receipt-${number}.pdf`);
    expect(mine.text).toContain(`Receipt ${number}`);
    expect(mine.text).toContain("ATL Creator Studio");
    expect(mine.text).toContain(customer.fullName);
    expect(mine.text).toContain("Analytical Audio");
    expect(mine.text).toContain(`Booking #${id}`);
    expect(mine.text).toContain("2 hours × $150.00 $300.00");
    expect(mine.text).toContain("Amount paid $300.00");
    expect(mine.text).toMatch(/Method Visa .{1,6}4242/);

    // Staff, in their own browser: the booking's admin page lists the same receipt.
    const staffContext = await browser.newContext({
      baseURL: testInfo.project.use.baseURL,
      javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
      acceptDownloads: true,
    });
    const staffPage = await staffContext.newPage();
    await signIn(staffPage, admin);
    await staffPage.goto(`/admin/bookings/${id}`);
    const staffReceipts = staffPage.getByRole("region", { name: "Receipts" });
    const staffLink = staffReceipts.getByRole("link", { name: `Receipt ${number} (PDF)` });
    await expect(staffLink).toBeVisible();
    await expectNoAxeViolations(staffPage);
    const theirs = await download(staffPage, staffLink);
    expect(theirs.name).toBe(mine.name);
    expect(theirs.text).toBe(mine.text);
    await staffContext.close();

    // Another customer finds nothing there.
    const stranger = await createUser(testInfo);
    const strangerContext = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const strangerPage = await strangerContext.newPage();
    await signIn(strangerPage, stranger);
    const refused = await strangerPage.request.get((await link.getAttribute("href")) ?? "/missing");
    expect(refused.status()).toBe(404);
    await strangerContext.close();
  });
});
