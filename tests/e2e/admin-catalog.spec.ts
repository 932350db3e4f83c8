import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { coupons, services, users } from "#db/schema";
import { adminDay, insertSession } from "#tests/e2e/admin-data";
import {
  createService,
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  login,
  test,
  toast,
  signIn,
} from "#tests/e2e/fixtures";
import { addBookingService } from "#tests/factories/booking";

/**
 * The Users, Coupons and Services tabs (docs/product.md "Screens", "States and transitions",
 * "Validation" and "Messages"), with JavaScript on and off. The database is shared by the whole
 * run: each journey works on its own user, its own coupon codes and its own service names, found by
 * name, never by position in a list.
 */

test.describe("Users tab", () => {
  test("promotes a user and toggles their membership", async ({ page, admin }, testInfo) => {
    const person = await createUser(testInfo);
    await signIn(page, admin);
    await page.goto("/admin/users");
    await expect(page.getByRole("heading", { name: "User Management" })).toBeVisible();

    await page.getByLabel("Username contains").fill(person.username);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${person.username}`));
    const row = page.locator("tbody tr", { hasText: person.username });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(String(person.id));
    await expect(row).toContainText("User");
    await expect(row).toContainText("Non-Member");
    await expectNoAxeViolations(page);

    await row.getByRole("button", { name: "Make Admin" }).click();
    await expect(toast(page)).toContainText("User updated");
    await expect(toast(page)).toContainText(`${person.username} is now an admin`);
    await expect(row).toContainText("Admin");
    await expect(row.getByRole("button", { name: "Make Admin" })).toBeDisabled();
    // The filter survived the post (post/redirect/get to the same list).
    await expect(page).toHaveURL(new RegExp(`q=${person.username}`));

    await row.getByRole("button", { name: "Make Member" }).click();
    await expect(toast(page)).toContainText(`${person.username} is now a member`);
    // Membership is the third cell ("Non-Member" contains "Member", so read the cell whole).
    await expect(row.getByRole("cell").nth(2)).toHaveText("Member");
    await page.getByLabel("Show").selectOption({ label: "Members Only" });
    await page.getByRole("button", { name: "Apply" }).click();
    // The row was on the page before the filter too: wait for the filtered list itself, or
    // Remove Membership posts from the unfiltered page and its redirect keeps no filter.
    await expect(page).toHaveURL(/membership=members/);
    await expect(row).toHaveCount(1);

    await row.getByRole("button", { name: "Remove Membership" }).click();
    await expect(toast(page)).toContainText(`${person.username} is no longer a member`);
    // Members only, and this user no longer is one.
    await expect(page.getByText("No members found")).toBeVisible();
    const stored = db()
      .select({ isAdmin: users.isAdmin, isMember: users.isMember })
      .from(users)
      .where(eq(users.id, person.id))
      .get();
    expect(stored).toEqual({ isAdmin: true, isMember: false });
    await expectNoAxeViolations(page);
  });
});

/** The table row whose Code is exactly `code` (one code may be the start of another). */
function couponRow(page: Page, code: string) {
  return page
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: code, exact: true }) });
}

test.describe("Coupons tab", () => {
  test("creates, refuses a duplicate, deactivates and reactivates", async ({
    page,
    admin,
  }, testInfo) => {
    const code =
      `CAT${testInfo.project.name.replace(/[^a-z]/gi, "")}${Date.now().toString(36)}`.toUpperCase();
    await signIn(page, admin);
    await page.goto("/admin/coupons");
    await expect(page.getByRole("heading", { name: "Coupon Management" })).toBeVisible();
    await expectNoAxeViolations(page);

    const form = page.locator("form", { has: page.getByRole("button", { name: "Create Coupon" }) });
    // The checks and texts of docs/product.md "Validation", tied to the fields.
    await form.getByLabel("Discount amount").fill("0");
    await form.getByRole("button", { name: "Create Coupon" }).click();
    await expect(toast(page)).toContainText("Code required");
    await expect(toast(page)).toContainText("Please enter a coupon code");
    await expect(form.getByLabel("Code")).toHaveAccessibleDescription("Please enter a coupon code");
    await expect(form.getByLabel("Discount amount")).toHaveAccessibleDescription(
      /Discount amount must be a positive number/,
    );
    await expectNoAxeViolations(page);

    await form.getByLabel("Code").fill(code.toLowerCase());
    await form.getByLabel("Type").selectOption({ label: "Percentage" });
    await form.getByLabel("Discount amount").fill("12.5");
    await form.getByLabel("Maximum uses").fill("0");
    await form.getByRole("button", { name: "Create Coupon" }).click();
    await expect(toast(page)).toContainText("Coupon created");
    await expect(toast(page)).toContainText(`Coupon ${code} was created successfully`);
    // The form resets.
    await expect(form.getByLabel("Code")).toHaveValue("");
    await expect(form.getByLabel("Discount amount")).toHaveValue("");

    const row = couponRow(page, code);
    await expect(row).toContainText("13%");
    await expect(row.getByRole("cell", { name: "0 / unlimited" })).toBeVisible();
    await expect(row).toContainText("December 31, 2099");
    await expect(row).toContainText("Active");

    // A created coupon works in the booking form.
    const check = await page.request.get(`/api/coupons/validate/${code.toLowerCase()}`);
    expect(await check.json()).toMatchObject({ isValid: true, coupon: { code, value: 13 } });

    // The same code in another case is a duplicate.
    await form.getByLabel("Code").fill(code.toLowerCase());
    await form.getByLabel("Discount amount").fill("5");
    await form.getByRole("button", { name: "Create Coupon" }).click();
    await expect(toast(page)).toContainText("Duplicate Coupon Code");
    await expect(toast(page)).toContainText(
      `A coupon with code "${code}" already exists. Please use a different code.`,
    );

    // A fixed amount in cents, with an expiry day.
    const fixed = `${code}F`;
    await form.getByLabel("Code").fill(fixed);
    await form.getByLabel("Type").selectOption({ label: "Fixed amount" });
    await form.getByLabel("Discount amount").fill("15.5");
    await form.getByLabel("Maximum uses").fill("3");
    await form.getByLabel("Expiry date (optional)").fill("2030-06-30");
    await form.getByRole("button", { name: "Create Coupon" }).click();
    await expect(toast(page)).toContainText(`Coupon ${fixed} was created successfully`);
    const fixedRow = couponRow(page, fixed);
    await expect(fixedRow).toContainText("$15.50");
    await expect(fixedRow).toContainText("0 / 3");
    await expect(fixedRow).toContainText("June 30, 2030");

    await row.getByRole("button", { name: "Deactivate" }).click();
    await expect(toast(page)).toContainText("Coupon deactivated");
    await expect(row).toContainText("Inactive");
    expect(await (await page.request.get(`/api/coupons/validate/${code}`)).json()).toMatchObject({
      isValid: false,
    });
    await row.getByRole("button", { name: "Activate" }).click();
    await expect(toast(page)).toContainText("Coupon activated");
    await expect(row.getByRole("button", { name: "Deactivate" })).toBeVisible();
    expect(
      db()
        .select({
          value: coupons.value,
          type: coupons.type,
          isActive: coupons.isActive,
          description: coupons.description,
        })
        .from(coupons)
        .where(eq(coupons.code, code))
        .get(),
    ).toEqual({ value: 13, type: "PERCENTAGE", isActive: true, description: "13% off coupon" });
    await expectNoAxeViolations(page);
  });
});

test.describe("Services tab", () => {
  test("adds, edits, toggles and deletes a service", async ({ page, admin }, testInfo) => {
    const name = `Teleprompter ${testInfo.project.name} ${Date.now().toString(36)}`;
    await signIn(page, admin);
    await page.goto("/admin/services");
    await expect(page.getByRole("heading", { name: "Manage Services" })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("link", { name: "Add Service" }).click();
    const add = page.getByRole("dialog", { name: "Add Service" });
    await expect(add).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/services\/new$/);
    await add.getByRole("button", { name: "Create Service" }).click();
    await expect(toast(page)).toContainText("Validation Error");
    await expect(toast(page)).toContainText("Name, description, and price are required.");
    await expect(add.getByLabel("Name")).toHaveAccessibleDescription(
      "Name, description, and price are required.",
    );
    await expectNoAxeViolations(page);

    await add.getByLabel("Name").fill(name);
    await add.getByLabel("Description").fill("Reads your script while you look at the camera");
    await add.getByLabel("Price").fill("0");
    await add.getByRole("button", { name: "Create Service" }).click();
    await expect(toast(page)).toContainText("Price must be a positive number.");
    await add.getByLabel("Price").fill("40");
    await add.getByRole("button", { name: "Create Service" }).click();
    await expect(toast(page)).toContainText("Service created");
    await expect(page).toHaveURL(/\/admin\/services$/);
    const row = page.locator("tbody tr", { hasText: name });
    await expect(row).toContainText("$40.00");
    await expect(row).toContainText("Active");

    await row.getByRole("link", { name: `Edit ${name}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit Service" });
    await expect(edit.getByLabel("Price")).toHaveValue("40");
    await expectNoAxeViolations(page);
    await edit.getByLabel("Price").fill("45");
    await edit.getByLabel("Duration (optional)").fill("30");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page)).toContainText("Service updated");
    await expect(row).toContainText("$45.00");
    await expect(row).toContainText("30 min");

    await row.getByRole("button", { name: "Deactivate" }).click();
    await expect(toast(page)).toContainText("Service status updated");
    await expect(row).toContainText("Inactive");
    await row.getByRole("button", { name: "Activate" }).click();
    await expect(toast(page)).toContainText(`${name} is now active`);

    await row.getByRole("link", { name: `Delete ${name}` }).click();
    const remove = page.getByRole("dialog", { name: "Delete Service" });
    await expect(remove).toContainText(name);
    await expectNoAxeViolations(page);
    await remove.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page)).toContainText("Service deleted");
    await expect(page.locator("tbody tr", { hasText: name })).toHaveCount(0);
  });

  test("deleting a service a booking used deactivates it", async ({
    page,
    admin,
    customer,
  }, testInfo) => {
    const service = createService(testInfo, "Used add-on", 60);
    const bookingId = insertSession(customer, {
      date: adminDay(testInfo, 3, 1),
      status: "CONFIRMED",
    });
    addBookingService(db(), { booking: { id: bookingId }, service });

    await signIn(page, admin);
    await page.goto(`/admin/services/${service.id}/delete`);
    const remove = page.getByRole("dialog", { name: "Delete Service" });
    await remove.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page)).toContainText("Service deactivated");
    const row = page.locator("tbody tr", { hasText: service.name });
    await expect(row).toContainText("Inactive");
    expect(
      db()
        .select({ isActive: services.isActive })
        .from(services)
        .where(eq(services.id, service.id))
        .get(),
    ).toEqual({ isActive: false });
  });
});

test("the three tabs and the service dialog fit a 320 px screen", async ({ page, admin }) => {
  await page.setViewportSize({ width: 320, height: 720 });
  await login(page, admin);
  for (const path of ["/admin/users", "/admin/coupons", "/admin/services", "/admin/services/new"]) {
    await page.goto(path);
    // The tab's card and anything wide in it (tables scroll inside their own region).
    for (const part of [
      page.locator("section[aria-labelledby=admin-tab-title]"),
      ...(await page.getByRole("region").all()),
    ]) {
      const box = await part.boundingBox();
      expect(box && box.x + box.width, path).toBeLessThanOrEqual(320);
    }
    if (path.endsWith("/new")) {
      const box = await page.getByRole("dialog", { name: "Add Service" }).boundingBox();
      expect(box && box.x + box.width, path).toBeLessThanOrEqual(320);
    }
  }
  await expectNoAxeViolations(page);
});
