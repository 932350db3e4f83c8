import type { Page } from "@playwright/test";
import { count, eq } from "drizzle-orm";
import { blockedTimes, bookings, technicalAssistanceRequests } from "#db/schema";
import { studioInstant } from "#app/domain/studio-time";
import { adminDay, insertSession } from "#tests/e2e/admin-data";
import {
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  jsOn,
  login,
  type TestUser,
  test,
  toast,
  signIn,
} from "#tests/e2e/fixtures";
import { createBlockedTime, createSupportRequest } from "#tests/factories/support";

/**
 * The admin's Support tab, the Emails page and blocked times (docs/product.md "Support and chat",
 * "Emails page", "Blocked times"), with JavaScript on and off: a customer's request
 * worked to RESOLVED and read back by the customer and in the outbox, and a blocked range the
 * booking form on / refuses until it is removed. Only this spec's own rows are asserted on.
 */

const BAND = 4;

function fileRequest(customer: TestUser, bookingId: number, description: string): number {
  return createSupportRequest(db(), { user: customer, bookingId, description }).id;
}

function requestRow(id: number) {
  return db()
    .select({
      status: technicalAssistanceRequests.status,
      resolution: technicalAssistanceRequests.resolution,
      resolvedAt: technicalAssistanceRequests.resolvedAt,
    })
    .from(technicalAssistanceRequests)
    .where(eq(technicalAssistanceRequests.id, id))
    .get();
}

/** Signs the page's browser out (cookies gone) and in as `user`. */
async function switchTo(page: Page, user: TestUser) {
  await page.context().clearCookies();
  await login(page, user);
}

test.describe("Support tab", () => {
  test("a request is worked PENDING -> In Progress -> Resolved, and the customer and outbox show it", async ({
    page,
    admin,
    customer,
  }, testInfo) => {
    const day = adminDay(testInfo, BAND, 0);
    const bookingId = insertSession(customer, { date: day, time: "14:00", status: "CONFIRMED" });
    const description = `The booth two headphones hum (${customer.username}).`;
    const resolution = `Replaced the headphone amplifier for ${customer.username}.`;
    const id = fileRequest(customer, bookingId, description);

    await signIn(page, admin);
    await page.goto("/admin/support?status=PENDING");
    await expect(
      page.getByRole("heading", { level: 2, name: "Technical Support Requests" }),
    ).toBeVisible();
    const row = page.locator(`#request-${id}`);
    await expect(row).toContainText(description);
    await expect(row).toContainText(`User #${customer.id}`);
    await expect(row).toContainText(customer.email);
    await expect(row).toContainText("Prefers: E-mail");
    await expect(row).toContainText("Pending");
    await expect(row.getByRole("link", { name: `Booking #${bookingId}` })).toHaveAttribute(
      "href",
      `/admin/bookings/${bookingId}`,
    );
    await expectNoAxeViolations(page);

    await row.getByRole("button", { name: "Start Working" }).click();
    await expect(toast(page)).toContainText("Request updated");
    await expect(toast(page)).toContainText(`Request #${id} is now In Progress.`);
    // Back on the same filtered list: the request is no longer PENDING.
    await expect(page).toHaveURL(/\/admin\/support\?status=PENDING$/);
    await expect(page.locator(`#request-${id}`)).toHaveCount(0);
    expect(requestRow(id)?.status).toBe("IN_PROGRESS");

    await page.goto("/admin/support?status=IN_PROGRESS");
    const working = page.locator(`#request-${id}`);
    await expect(working).toContainText("In Progress");
    // Mark Resolved with no details is refused on the field, and nothing changes.
    await working.getByRole("button", { name: "Mark Resolved" }).click();
    await expect(toast(page)).toContainText("Error updating request");
    const details = page.locator(`#request-${id}`).getByLabel("Resolution details");
    await expect(details).toHaveAttribute("aria-invalid", "true");
    await expect(details).toHaveAccessibleDescription(
      "Please describe how the request was resolved",
    );
    expect(requestRow(id)).toEqual({ status: "IN_PROGRESS", resolution: null, resolvedAt: null });
    await expectNoAxeViolations(page);

    await details.fill(resolution);
    await page.locator(`#request-${id}`).getByRole("button", { name: "Mark Resolved" }).click();
    await expect(toast(page)).toContainText(`Request #${id} is resolved`);
    expect(requestRow(id)).toMatchObject({ status: "RESOLVED", resolution });
    expect(requestRow(id)?.resolvedAt).toBeGreaterThan(Date.now() - 120_000);
    await page.goto("/admin/support?status=RESOLVED");
    const done = page.locator(`#request-${id}`);
    await expect(done).toContainText(resolution);
    await expect(done).toContainText("No actions");

    // The customer sees it resolved, with the resolution, in their Support tab.
    await switchTo(page, customer);
    await page.goto("/dashboard?tab=support");
    const listed = page.locator("#support-requests li", { hasText: description });
    await expect(listed).toContainText("Resolved");
    await expect(listed).toContainText(resolution);

    // The e-mail is in the outbox, readable by the admin.
    await switchTo(page, admin);
    await page.goto("/admin/emails");
    const subject = `Your support request #${id} is resolved`;
    await expect(page.getByRole("heading", { level: 2, name: "Emails" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: subject }).click();
    await expect(page.getByRole("heading", { level: 2, name: /^E-mail #\d+$/ })).toBeVisible();
    await expect(page.getByText(customer.email, { exact: true })).toBeVisible();
    await expect(page.locator("pre")).toContainText(resolution);
    const frame = page.frameLocator(`iframe[title^="HTML version of e-mail"]`);
    await expect(
      frame.getByRole("heading", { name: "Your support request is resolved" }),
    ).toBeVisible();
    await expect(frame.getByText(resolution)).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("the empty list says so, and a customer cannot open the admin pages", async ({
    page,
    admin,
  }, testInfo) => {
    const someone = await createUser(testInfo);
    await login(page, someone);
    for (const path of [
      "/admin/support",
      "/admin/emails",
      "/admin/emails/1",
      "/admin/blocked-times",
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard$/);
    }
    await switchTo(page, admin);
    // A page past the end of the list is empty, in the words of docs/product.md "Messages".
    await page.goto("/admin/support?status=PENDING&page=4000");
    await expect(page.getByText("No technical assistance requests found")).toBeVisible();
    await expectNoAxeViolations(page);

    // 320 px wide: the page never scrolls sideways; wide tables scroll in their own region.
    await page.setViewportSize({ width: 320, height: 800 });
    for (const path of ["/admin/support", "/admin/blocked-times?show=past", "/admin/emails"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Blocked times and the booking form on /

async function startOptionOn(page: Page, date: string, time: string) {
  await page.goto("/#booking");
  const form = page.locator("#booking-form");
  await form.scrollIntoViewIfNeeded();
  if (jsOn()) await expect(form.locator('input[name="_hydrated"]')).toBeAttached();
  await form.getByLabel("Recording date").fill(date);
  await form.getByLabel("Hours", { exact: true }).selectOption("2");
  if (!jsOn()) {
    await page.getByRole("button", { name: "Show free times and update the price" }).click();
  }
  const select = form.getByLabel("Start time", { exact: true });
  await expect(select).toHaveAccessibleDescription(new RegExp(`on ${date} for 2 hours`));
  return select.locator(`option[value="${time}"]`);
}

/** A start time of the booking form's "Start time" list (the waitlist's list has them too). */
function startOption(page: Page, time: string) {
  return page
    .locator("#booking-form")
    .getByLabel("Start time", { exact: true })
    .locator(`option[value="${time}"]`);
}

test.describe("Blocked times", () => {
  test("a blocked range is refused by the booking form until it is removed", async ({
    page,
    admin,
    customer,
  }, testInfo) => {
    const day = adminDay(testInfo, BAND, 1);
    const reason = `Mixing desk service ${customer.username}`;
    const overlapped = insertSession(customer, { date: day, time: "11:00", status: "CONFIRMED" });

    await signIn(page, admin);
    await page.goto("/admin/blocked-times");
    await expect(page.getByRole("heading", { level: 2, name: "Blocked Times" })).toBeVisible();
    await page.getByLabel("Start date").fill(day);
    await page.getByLabel("Start time").fill("09:00");
    await page.getByLabel("End date").fill(day);
    await page.getByLabel("End time").fill("12:00");
    await page.getByLabel("Reason").fill(reason);
    await page.getByRole("button", { name: "Block this time" }).click();

    await expect(toast(page)).toContainText("Time blocked");
    await expect(toast(page)).toContainText("1 booked session overlaps it");
    const block = db()
      .select({ id: blockedTimes.id, createdBy: blockedTimes.createdBy })
      .from(blockedTimes)
      .where(eq(blockedTimes.reason, reason))
      .get();
    if (!block) throw new Error(`No blocked time "${reason}"`);
    expect(block.createdBy).toBe(admin.id);
    const row = page.locator(`#block-${block.id}`);
    await expect(row).toContainText("9:00 AM");
    await expect(row).toContainText("12:00 PM");
    await expect(row.getByRole("link", { name: `Booking #${overlapped}` })).toBeVisible();
    await expect(row).toContainText(customer.email);
    await expectNoAxeViolations(page);

    // A refused form keeps what was typed and names the field.
    await page.getByLabel("Start date").fill(day);
    await page.getByLabel("Start time").fill("15:00");
    await page.getByLabel("End date").fill(day);
    await page.getByLabel("End time").fill("14:00");
    await page.getByLabel("Reason").fill("Backwards");
    await page.getByRole("button", { name: "Block this time" }).click();
    await expect(toast(page)).toContainText("Time not blocked");
    await expect(page.getByLabel("End date")).toHaveAccessibleDescription(
      "The end must be after the start",
    );
    await expect(page.getByLabel("Reason")).toHaveValue("Backwards");

    // Visitors see 08:00 (08:00-10:00 touches the block) marked, 07:00 free.
    await page.context().clearCookies();
    const blocked = await startOptionOn(page, day, "08:00");
    await expect(blocked).toBeDisabled();
    await expect(blocked).toContainText("(booked)");
    await expect(startOption(page, "07:00")).toBeEnabled();

    await signIn(page, admin);
    await page.goto("/admin/blocked-times");
    await page
      .locator(`#block-${block.id}`)
      .getByRole("button", { name: /^Remove the block from / })
      .click();
    await expect(toast(page)).toContainText("Blocked time removed");
    await expect(page.locator(`#block-${block.id}`)).toHaveCount(0);
    expect(
      db().select().from(blockedTimes).where(eq(blockedTimes.id, block.id)).get(),
    ).toBeUndefined();

    await page.context().clearCookies();
    const freed = await startOptionOn(page, day, "08:00");
    await expect(freed).toBeEnabled();
    await expect(freed).not.toContainText("(booked)");
    // The session it overlapped still holds its own slot.
    await expect(startOption(page, "10:00")).toBeDisabled();
  });

  test("a block made while a customer fills the form refuses the booking: 'Time Slot Unavailable'", async ({
    page,
    customer,
  }, testInfo) => {
    const day = adminDay(testInfo, BAND, 2);
    await signIn(page, customer);
    const option = await startOptionOn(page, day, "15:00");
    await expect(option).toBeEnabled();
    await page
      .locator("#booking-form")
      .getByLabel("Start time", { exact: true })
      .selectOption("15:00");

    // Staff close the studio meanwhile (another admin's tab, written straight to the database).
    const [startsAt, endsAt] = [studioInstant(day, "16:00"), studioInstant(day, "18:00")];
    createBlockedTime(db(), { startsAt, endsAt, reason: "Power cut" });
    await page
      .locator("#booking-form")
      .getByRole("button", { name: "Book and Continue to Payment" })
      .click();

    await expect(toast(page)).toContainText("Time Slot Unavailable");
    await expect(page).not.toHaveURL(/\/checkout\//);
    const booked = db()
      .select({ total: count() })
      .from(bookings)
      .where(eq(bookings.userId, customer.id))
      .get();
    expect(booked?.total).toBe(0);
  });
});
