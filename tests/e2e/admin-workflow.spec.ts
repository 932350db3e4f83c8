import type { Page } from "@playwright/test";
import { adminDay, insertSession } from "#tests/e2e/admin-data";
import {
  createUser,
  expect,
  expectNoAxeViolations,
  jsOn,
  login,
  test,
  toast,
  signIn,
} from "#tests/e2e/fixtures";

/**
 * The session workflow (docs/product.md "Sessions tab", "Admin workflow"): staff change a
 * booking's status through every step with the row buttons, bulk-update several, read a booking's
 * history, and filter the lists by day, status and membership. Every journey works on its own
 * days and clients (the suite shares one database), with JavaScript on and off.
 */

/** "November 24, 2026" for a studio day, as the admin lists write it. */
function longDate(date: string): string {
  return new Intl.DateTimeFormat("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T12:00:00Z`));
}

const rowOf = (page: Page, id: number) => page.locator(`tr[data-booking-id="${id}"]`);
const statusCell = (page: Page, id: number, column: number) =>
  rowOf(page, id).locator("td").nth(column);

test("changes a booking's status through every step with the row buttons, then reads its history", async ({
  page,
  admin,
  customer,
}, testInfo) => {
  const date = adminDay(testInfo, 0, 0);
  const id = insertSession(customer, { date, time: "10:00", status: "PENDING_PAYMENT" });
  await signIn(page, admin);
  await page.goto(`/admin/bookings?date=${date}`);
  await expect(page.getByRole("heading", { name: "Bookings Management" })).toBeVisible();
  await expect(page.getByText("View and manage all studio bookings")).toBeVisible();
  const row = rowOf(page, id);
  await expect(row).toContainText(customer.fullName);
  await expect(row).toContainText(customer.email);
  await expect(row).toContainText("404-555-0100");
  await expect(row).toContainText(longDate(date));
  await expect(row).toContainText("10:00 AM – 12:00 PM");
  await expect(statusCell(page, id, 2)).toHaveText("Pending Payment");
  await expectNoAxeViolations(page);

  const steps = [
    ["Mark for Review", "Pending Review"],
    ["Confirm Session", "Confirmed"],
    ["Mark as Recorded", "Recorded"],
    ["Send to Post-Production", "In Post-Production"],
    ["Mark as Completed", "Completed"],
  ] as const;
  for (const [button, label] of steps) {
    await row.getByRole("button", { name: button }).click();
    await expect(statusCell(page, id, 2)).toHaveText(label);
    await expect(toast(page)).toContainText("Booking updated");
    await expect(toast(page)).toContainText(`Booking #${id} is now ${label}.`);
  }
  // Nothing leaves Completed: no more buttons, cancelling included.
  await expect(row.getByRole("button")).toHaveCount(0);
  await expectNoAxeViolations(page);

  await row.getByRole("link", { name: "View booking" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/bookings/${id}$`));
  await expect(page.getByRole("heading", { name: `Booking #${id}` })).toBeVisible();
  const history = page.getByRole("region", { name: "Booking history" }).locator("tbody tr");
  await expect(history).toHaveCount(5);
  const expected = [
    ["Pending Payment", "Pending Review"],
    ["Pending Review", "Confirmed"],
    ["Confirmed", "Recorded"],
    ["Recorded", "In Post-Production"],
    ["In Post-Production", "Completed"],
  ];
  for (const [index, [from, to]] of expected.entries()) {
    const cells = history.nth(index).locator("td");
    await expect(cells.nth(1)).toHaveText(admin.username);
    await expect(cells.nth(2)).toHaveText(from ?? "");
    await expect(cells.nth(3)).toHaveText(to ?? "");
  }
  await expectNoAxeViolations(page);
});

test("staff cancel a paid booking from its page: refunded in full, with a note in the history", async ({
  page,
  admin,
  customer,
}, testInfo) => {
  const date = adminDay(testInfo, 0, 1);
  const id = insertSession(customer, { date, status: "CONFIRMED", total: 400, paid: 400 });
  await signIn(page, admin);
  await page.goto(`/admin/bookings/${id}`);
  await expect(page.getByRole("region", { name: "Booking history" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Note for the history (optional)").fill("Engineer ill");
  // Cancelling takes a second click: the first only says what it does.
  await page.getByText("Cancel…").click();
  await expect(page.getByText("Everything paid is refunded in full")).toBeVisible();
  await page.getByRole("button", { name: "Cancel Session" }).click();
  await expect(toast(page)).toContainText(`Booking #${id} is now Cancelled.`);
  const payments = page.getByRole("region", { name: "Payment records" });
  await expect(payments).toContainText("Refund");
  await expect(payments).toContainText("−$400.00");
  await expect(page.getByText("Paid, net of refunds").locator("..")).toContainText("$0.00");
  const last = page.getByRole("region", { name: "Booking history" }).locator("tbody tr").last();
  await expect(last).toContainText("Confirmed");
  await expect(last).toContainText(
    "Cancelled by the studio; refunded $400.00 in full. Engineer ill",
  );
  await expect(page.getByRole("button", { name: "Cancel Session" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("bulk-updates several sessions and reports X of Y", async ({
  page,
  admin,
  customer,
}, testInfo) => {
  const date = adminDay(testInfo, 0, 2);
  const ids = ["09:00", "12:00", "15:00"].map((time) =>
    insertSession(customer, { date, time, status: "PENDING", total: 400, paid: 400 }),
  );
  const done = insertSession(customer, { date, time: "18:00", status: "COMPLETED" });
  await signIn(page, admin);
  await page.goto(`/admin/sessions?date=${date}`);
  await expect(page.getByRole("heading", { name: "Session Workflow Management" })).toBeVisible();
  await expect(rowOf(page, done)).toContainText("2 hours");
  await expectNoAxeViolations(page);

  if (jsOn(testInfo)) {
    const selectAll = page.getByRole("checkbox", { name: "Select all sessions on this page" });
    await selectAll.check();
    await expect(page.getByText("4 session(s) selected")).toBeVisible();
    await page.getByRole("button", { name: "Clear Selection" }).click();
    await expect(page.getByText(/session\(s\) selected/)).toHaveCount(0);
    await rowOf(page, ids[0] ?? 0)
      .getByRole("checkbox")
      .check();
    await expect(page.getByText("1 session(s) selected")).toBeVisible();
    await selectAll.check();
  } else {
    await page.getByRole("link", { name: "Select all" }).click();
    await expect(page).toHaveURL(/selected=all/);
  }
  await expect(page.getByText("4 session(s) selected")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByText("Update Status").click();
  await page.getByRole("button", { name: "Confirm Sessions", exact: true }).click();
  await expect(toast(page)).toContainText('Successfully updated 3 of 4 bookings to "Confirmed"');
  for (const id of ids) await expect(statusCell(page, id, 4)).toHaveText("Confirmed");
  await expect(statusCell(page, done, 4)).toHaveText("Completed");
  // The selection is cleared after the update.
  await expect(page).not.toHaveURL(/selected=all/);
  await expect(page.getByText(/session\(s\) selected/)).toHaveCount(0);
  await expect(rowOf(page, ids[0] ?? 0).getByRole("checkbox")).not.toBeChecked();

  // Two rows picked by hand go on to Recorded.
  await rowOf(page, ids[0] ?? 0)
    .getByRole("checkbox")
    .check();
  await rowOf(page, ids[1] ?? 0)
    .getByRole("checkbox")
    .check();
  await page.getByText("Update Status").click();
  await page.getByRole("button", { name: "Mark as Recorded", exact: true }).click();
  await expect(toast(page)).toContainText('Successfully updated 2 of 2 bookings to "Recorded"');
  await expect(statusCell(page, ids[0] ?? 0, 4)).toHaveText("Recorded");
  await expect(statusCell(page, ids[1] ?? 0, 4)).toHaveText("Recorded");
  await expect(statusCell(page, ids[2] ?? 0, 4)).toHaveText("Confirmed");
  await expectNoAxeViolations(page);

  // The bulk change kept the history of each booking.
  await rowOf(page, ids[0] ?? 0)
    .getByRole("link", { name: "View booking" })
    .click();
  const history = page.getByRole("region", { name: "Booking history" }).locator("tbody tr");
  await expect(history).toHaveCount(2);
  await expect(history.last()).toContainText("Confirmed");
  await expect(history.last()).toContainText("Recorded");
});

test("an empty bulk selection is refused and changes nothing", async ({
  page,
  admin,
  customer,
}, testInfo) => {
  const date = adminDay(testInfo, 0, 3);
  const id = insertSession(customer, { date, status: "PENDING", total: 400, paid: 400 });
  await signIn(page, admin);
  await page.goto(`/admin/sessions?date=${date}`);
  await page.getByText("Update Status").click();
  await page.getByRole("button", { name: "Cancel Sessions", exact: true }).click();
  await expect(toast(page)).toContainText("No bookings selected");
  await expect(toast(page)).toContainText("Please select at least one booking to update");
  await expect(statusCell(page, id, 4)).toHaveText("Pending Review");
  await expectNoAxeViolations(page);
});

test("filters by day, status and membership, with the empty texts", async ({
  page,
  admin,
  customer,
}, testInfo) => {
  const date = adminDay(testInfo, 0, 4);
  const member = await createUser(testInfo, { firstName: "Mia", isMember: true });
  const memberId = insertSession(member, { date, time: "10:00", status: "CONFIRMED" });
  const guestId = insertSession(customer, { date, time: "14:00", status: "PENDING" });
  const otherDay = insertSession(customer, { date: adminDay(testInfo, 0, 5), status: "PENDING" });
  await signIn(page, admin);
  await page.goto("/admin/bookings");

  await page.getByLabel("Date").fill(date);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`date=${date}`));
  await expect(rowOf(page, memberId)).toBeVisible();
  await expect(rowOf(page, guestId)).toBeVisible();
  await expect(rowOf(page, otherDay)).toHaveCount(0);
  // A day reads as its agenda: earliest first.
  await expect(page.locator("tbody tr").first()).toHaveAttribute(
    "data-booking-id",
    String(memberId),
  );

  await page.getByLabel("Status").selectOption({ label: "Confirmed" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rowOf(page, memberId)).toBeVisible();
  await expect(rowOf(page, guestId)).toHaveCount(0);

  await page.getByLabel("Membership").selectOption({ label: "Non-Members Only" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(
    page.getByText("No bookings found for the selected date with status Confirmed for non-members"),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Status").selectOption({ label: "All Statuses" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rowOf(page, guestId)).toBeVisible();
  await expect(rowOf(page, memberId)).toHaveCount(0);
  await page.getByLabel("Membership").selectOption({ label: "Members Only" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rowOf(page, memberId)).toBeVisible();
  await expect(rowOf(page, guestId)).toHaveCount(0);

  await page.getByRole("link", { name: "Clear All Filters" }).click();
  await expect(page).toHaveURL(/\/admin\/bookings$/);
  await expect(page.getByLabel("Date")).toHaveValue("");
  await page.goto(`/admin/bookings?view=calendar&date=${date}&membership=members`);
  await page.getByRole("link", { name: "Clear All Filters" }).click();
  await expect(page).toHaveURL(/\/admin\/bookings\?view=calendar$/);
  await page.getByRole("link", { name: "Reset & Show All" }).click();
  await expect(page).toHaveURL(/\/admin\/bookings$/);

  // The Sessions tab: its status filter, 'Clear filter' and its empty text.
  await page.goto(`/admin/sessions?date=${date}`);
  await page.getByLabel("Status").selectOption({ label: "Cancelled" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(
    page.getByText("No bookings found for the selected date with status Cancelled"),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Status").selectOption({ label: "Pending Review" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rowOf(page, guestId)).toBeVisible();
  await expect(rowOf(page, memberId)).toHaveCount(0);
  await page.getByRole("link", { name: "Clear filter" }).click();
  await expect(page).toHaveURL(/\/admin\/sessions$/);
});

test("the tabs fit a 320 px screen: only the tables scroll, inside their regions", async ({
  page,
  admin,
  customer,
}, testInfo) => {
  const date = adminDay(testInfo, 0, 6);
  const id = insertSession(customer, { date, status: "CONFIRMED", total: 400, paid: 400 });
  await page.setViewportSize({ width: 320, height: 800 });
  await login(page, admin);
  for (const [path, region] of [
    [`/admin/bookings?date=${date}`, "Bookings"],
    [`/admin/sessions?date=${date}`, "Sessions"],
    [`/admin/bookings/${id}`, "Booking history"],
  ] as const) {
    await page.goto(path);
    // Every control and text outside the tables' own scrolling regions stays on screen.
    // Boxes come from the browser's layout, so this holds with JavaScript off as well.
    await expect(page.getByRole("region", { name: region, exact: true })).toBeVisible();
    const outside = page.locator(
      'main :is(input, select, button, a, h1, h2, h3, p, summary, dt, dd):not(section[tabindex="0"] *)',
    );
    for (const element of await outside.all()) {
      const bounds = await element.boundingBox();
      if (!bounds) continue;
      expect(
        bounds.x + bounds.width,
        `${path}: ${await element.textContent()}`,
      ).toBeLessThanOrEqual(320.5);
    }
    await expect(
      rowOf(page, id).or(page.getByRole("heading", { name: `Booking #${id}` })),
    ).toBeVisible();
  }
  await expectNoAxeViolations(page);
});

test("both tabs open in calendar view and back to the list", async ({ page, admin }) => {
  await login(page, admin);
  for (const [path, title] of [
    ["/admin/bookings", "Bookings Management"],
    ["/admin/sessions", "Session Workflow Management"],
  ] as const) {
    await page.goto(path);
    await page
      .getByRole("navigation", { name: "View" })
      .getByRole("link", { name: "Calendar" })
      .click();
    await expect(page).toHaveURL(new RegExp(`${path}\\?view=calendar`));
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "View" }).getByRole("link", { name: "Calendar" }),
    ).toHaveAttribute("aria-current", "page");
    await page
      .getByRole("navigation", { name: "View" })
      .getByRole("link", { name: "List" })
      .click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
});
