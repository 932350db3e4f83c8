import type { Page } from "@playwright/test";
import { inArray } from "drizzle-orm";
import { bookings, emailOutbox, payments } from "#db/schema";
import { db, expect, expectNoAxeViolations, toast } from "#tests/e2e/fixtures";

/**
 * The steps of a weekly series after booking (docs/product.md "Weekly series") that the
 * booking journey and the factory-series journey both walk: pay once at the series checkout,
 * cancel one session, cancel this and all later ones. Each step checks what the customer sees,
 * the rows and the outbox, and runs axe on the new page state.
 */
const EXPIRY = `12/${String((new Date().getFullYear() + 5) % 100).padStart(2, "0")}`;

/** The sessions' statuses, in the order they take place. */
export const statuses = (ids: number[]) =>
  db()
    .select({ status: bookings.status })
    .from(bookings)
    .where(inArray(bookings.id, ids))
    .orderBy(bookings.startsAt)
    .all()
    .map((row) => row.status);

/** The outbox's e-mails of one kind about any of these sessions. */
export const mails = (ids: number[], kind: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(inArray(emailOutbox.bookingId, ids))
    .all()
    .filter((mail) => mail.kind === kind);

/**
 * On /checkout/series/{id}: every session listed, then one payment of `total` (e.g.
 * "$2,000.00") with the sandbox card; every session is then paid (Pending Review), with one
 * payment row each and one e-mail naming them all.
 */
export async function payForSeries(page: Page, ids: number[], total: string) {
  await expect(page.getByRole("heading", { level: 1, name: "Pay for your series" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Sessions" }).getByRole("listitem")).toHaveCount(
    ids.length,
  );
  await expectNoAxeViolations(page);
  await page.getByLabel("Cardholder name").fill("Ada Lovelace");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiration date").fill(EXPIRY);
  await page.getByLabel("CVV").fill("123");
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(page).toHaveURL(/\/booking-success\?session_id=sandbox_/);
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(statuses(ids)).toEqual(Array(ids.length).fill("PENDING"));
  expect(db().select().from(payments).where(inArray(payments.bookingId, ids)).all()).toHaveLength(
    ids.length,
  );
  const paid = mails(ids, "payment-received");
  expect(paid).toHaveLength(1);
  for (const id of ids) expect(paid[0]?.text).toContain(`#${id}:`);
}

/** My Sessions' group of a series of `count` upcoming sessions, by its heading. */
export function seriesGroup(page: Page, count: number) {
  const sessions = count === 1 ? "1 session" : `${count} sessions`;
  return page.getByRole("region", {
    name: new RegExp(`^Weekly series · \\w+days .* · ${sessions}$`),
  });
}

/**
 * My Sessions after paying: the series' group lists its `count` sessions, each paid and waiting
 * for the studio's review, and no longer offers the series checkout.
 */
export async function expectSeriesPaid(page: Page, count: number) {
  await page.goto("/dashboard?tab=bookings");
  const group = seriesGroup(page, count);
  await expect(group).toBeVisible();
  const rows = group.getByRole("rowgroup").last().getByRole("row");
  await expect(rows).toHaveCount(count);
  for (const row of await rows.all()) await expect(row).toContainText("Pending Review");
  await expect(group.getByRole("link", { name: "Pay for the series" })).toHaveCount(0);
  await expect(group.getByRole("link", { name: /^Pay Now/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
}

/** From My Sessions, the cancel dialog of session `id`. */
export async function openCancel(page: Page, id: number) {
  await page.goto("/dashboard?tab=bookings");
  await page.locator(`a[href="/dashboard/sessions/${id}/cancel"]`).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/sessions/${id}/cancel`));
  return page.getByRole("dialog", { name: "Cancel this session?" });
}

/**
 * Cancels session `id` alone (the dialog's default), back on My Sessions with a toast; its
 * e-mail names the refund (e.g. "$400.00").
 */
export async function cancelOnlyThis(page: Page, id: number, refund: string) {
  const dialog = await openCancel(page, id);
  await expect(dialog.getByRole("radio", { name: /Only this session/ })).toBeChecked();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
  await expect(toast(page)).toContainText("Session cancelled");
  await expectNoAxeViolations(page);
  const cancelled = mails([id], "booking-cancelled");
  expect(cancelled).toHaveLength(1);
  expect(cancelled[0]?.subject).toMatch(/^Your session on .* is cancelled$/);
  expect(cancelled[0]?.text).toContain(`We are refunding the full ${refund} to your card.`);
}

/**
 * From the first of `ids` (the uncancelled sessions of a series from it on), cancels this and
 * all later ones, with the refund the toast must name (e.g. "$1,200.00"); one e-mail for all.
 */
export async function cancelThisAndLater(page: Page, ids: number[], refund: string) {
  const dialog = await openCancel(page, ids[0] ?? 0);
  await dialog
    .getByRole("radio", { name: new RegExp(`This and all later sessions \\(${ids.length}\\)`) })
    .check();
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
  await expect(toast(page)).toContainText(`${ids.length} sessions are cancelled.`);
  await expect(toast(page)).toContainText(`${refund} is refunded to your card`);
  await expectNoAxeViolations(page);
  const cancelled = mails(ids, "booking-cancelled");
  expect(cancelled).toHaveLength(1);
  expect(cancelled[0]?.subject).toContain(`${ids.length} sessions of your series cancelled`);
}
