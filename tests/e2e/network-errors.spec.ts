import type { Page } from "@playwright/test";
import { insertSession } from "#tests/e2e/admin-data";
import {
  accountMenu,
  addDays,
  chooseFromAccountMenu,
  createCoupon,
  createService,
  expect,
  expectNoAxeViolations,
  login,
  signIn,
  studioToday,
  test,
  tabLink,
} from "#tests/e2e/fixtures";

/**
 * A request made with JavaScript that gets no answer (docs/product.md "Connection failures"):
 * the network drops that one request, and the page says which failed in the words of the
 * original site's error catalogue. Without JavaScript the browser shows its own offline page,
 * so these journeys run with it only.
 */

const CONNECTION =
  "We could not reach the studio's server. Please check your connection and try again.";

const CONFLICT_CHECK = "Unable to verify time slot availability. Please try again.";

/** The booking form, hydrated (it hydrates when near: its hidden `_hydrated` field says so). */
async function bookingForm(page: Page) {
  const form = page.locator("form#booking-form");
  await form.scrollIntoViewIfNeeded();
  await expect(form.locator('input[name="_hydrated"]')).toBeAttached();
  return form;
}

/** Days of this file's own, past every other journey's. */
const day = (journey: number) => addDays(studioToday(), 700 + journey);

/** From now on, requests to `path` (the router's `.data` URL) get no answer. */
async function cutOff(page: Page, path: string | RegExp) {
  await page.route(
    (url) => (typeof path === "string" ? url.pathname === path : path.test(url.pathname)),
    (route) => route.abort("internetdisconnected"),
  );
}

const verbatim = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));

/**
 * The announced failure, its words as written (a toast, or the page's own place when the page
 * could not load). One assertion: a toast goes after 5 seconds.
 */
async function expectFailure(page: Page, title: string, description: string) {
  const alert = page
    .getByRole("alert")
    .filter({ hasText: verbatim(title) })
    .filter({ hasText: verbatim(description) });
  await expect(alert).toBeVisible();
}

test.describe("a request that gets no answer", { tag: "@js-on-only" }, () => {
  test("logging in: 'Login failed. Please try again.', the form kept", async ({
    page,
    customer,
  }) => {
    await page.goto("/auth");
    await page.getByLabel("Username").fill(customer.username);
    await page.getByLabel("Password", { exact: true }).fill(customer.password);
    await cutOff(page, "/auth.data");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expectFailure(page, "Login failed", "Login failed. Please try again.");
    await expectNoAxeViolations(page);
    await expect(page.getByLabel("Username")).toHaveValue(customer.username);
  });

  test("logging out: 'Logout failed', still signed in", async ({ page, customer }) => {
    await login(page, customer);
    await cutOff(page, "/logout.data");
    await chooseFromAccountMenu(page, "Logout");
    await expectFailure(page, "Logout failed", CONNECTION);
    await expectNoAxeViolations(page);
    await expect(accountMenu(page)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Record your show in a real studio",
    );
  });

  test("applying a coupon: 'Coupon Validation Failed'", async ({ page }) => {
    await page.goto("/");
    const form = await bookingForm(page);
    await form.getByLabel("Promo code").fill("SPRING");
    await cutOff(page, "/_root.data");
    await form.getByRole("button", { name: "Apply", exact: true }).click();
    await expectFailure(page, "Coupon Validation Failed", CONNECTION);
    await expectNoAxeViolations(page);
    await expect(form.getByLabel("Promo code")).toHaveValue("SPRING");
  });

  test("booking: 'Conflict Check Failed', the form and its coupon kept", async ({
    page,
    customer,
  }, testInfo) => {
    const coupon = createCoupon(testInfo, { type: "PERCENTAGE", value: 10 });
    await login(page, customer);
    const form = await bookingForm(page);
    const startTime = form.getByLabel("Start time", { exact: true });
    await form.getByLabel("Recording date").fill(day(1));
    await expect(startTime).toHaveAccessibleDescription(/free start times? on/);
    await startTime.selectOption("03:00");
    await form.getByLabel("Promo code").fill(coupon.code);
    await form.getByRole("button", { name: "Apply", exact: true }).click();
    await expect(form.getByLabel("Promo code")).toBeDisabled();

    await cutOff(page, "/_root.data");
    await form.getByRole("button", { name: "Book and Continue to Payment" }).click();
    await expectFailure(page, "Conflict Check Failed", CONFLICT_CHECK);
    await expectNoAxeViolations(page);
    await expect(startTime).toHaveValue("03:00");
    await expect(form.getByLabel("Promo code")).toBeDisabled();
    await expect(form.getByLabel("Promo code")).toHaveValue(coupon.code);
  });

  test("the free times: 'Conflict Check Failed'", async ({ page }) => {
    await page.goto("/");
    const form = await bookingForm(page);
    await cutOff(page, /^\/api\/availability/);
    await form.getByLabel("Recording date").fill(day(2));
    await expectFailure(page, "Conflict Check Failed", CONFLICT_CHECK);
  });

  test("loading My Sessions: 'Error loading sessions'", async ({ page, customer }) => {
    await login(page, customer);
    await page.goto("/dashboard?tab=profile");
    await cutOff(page, "/dashboard.data");
    await tabLink(page, "My Sessions").first().click();
    await expectFailure(page, "Error loading sessions", "Unknown error occurred");
    await expectNoAxeViolations(page);
    await expect(page.getByRole("link", { name: "Try again" })).toBeVisible();
  });

  test("opening Pay Now: 'Payment Failed' / 'No session selected'", async ({ page, customer }) => {
    const id = insertSession(customer, { date: day(3), status: "PENDING_PAYMENT" });
    await login(page, customer);
    await page.goto("/dashboard?tab=bookings");
    await cutOff(page, `/dashboard/sessions/${id}/pay.data`);
    await page.getByRole("link", { name: /^Pay Now/ }).click();
    await expectFailure(page, "Payment Failed", "No session selected");
    await expectNoAxeViolations(page);
  });

  test("creating a service: 'Failed to create service'", async ({ page, admin }) => {
    await signIn(page, admin);
    await page.goto("/admin/services/new");
    const add = page.getByRole("dialog", { name: "Add Service" });
    await add.getByLabel("Name").fill("Lighting kit");
    await add.getByLabel("Description").fill("Two softboxes and a key light");
    await add.getByLabel("Price").fill("60");
    await cutOff(page, "/admin/services/new.data");
    await add.getByRole("button", { name: "Create Service" }).click();
    await expectFailure(page, "Error", "Failed to create service");
    await expectNoAxeViolations(page);
    await expect(add.getByLabel("Name")).toHaveValue("Lighting kit");
  });

  test("editing a service: 'Failed to update service'", async ({ page, admin }, testInfo) => {
    const service = createService(testInfo, "Teleprompter", 40);
    await signIn(page, admin);
    await page.goto(`/admin/services/${service.id}/edit`);
    const edit = page.getByRole("dialog", { name: "Edit Service" });
    await edit.getByLabel("Price").fill("45");
    await cutOff(page, `/admin/services/${service.id}/edit.data`);
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expectFailure(page, "Error", "Failed to update service");
    await expect(edit.getByLabel("Price")).toHaveValue("45");
  });

  test("deleting a service: 'Failed to delete service'", async ({ page, admin }, testInfo) => {
    const service = createService(testInfo, "Teleprompter", 40);
    await signIn(page, admin);
    await page.goto(`/admin/services/${service.id}/delete`);
    const remove = page.getByRole("dialog", { name: "Delete Service" });
    await cutOff(page, `/admin/services/${service.id}/delete.data`);
    await remove.getByRole("button", { name: "Delete" }).click();
    await expectFailure(page, "Error", "Failed to delete service");
    await expect(remove).toContainText(service.name);
  });

  test("creating a coupon: 'Error creating coupon'", async ({ page, admin }) => {
    await signIn(page, admin);
    await page.goto("/admin/coupons");
    const form = page.locator("form", { has: page.getByRole("button", { name: "Create Coupon" }) });
    await form.getByLabel("Code").fill("OFFLINE10");
    await form.getByLabel("Discount amount").fill("10");
    await cutOff(page, "/admin/coupons.data");
    await form.getByRole("button", { name: "Create Coupon" }).click();
    await expectFailure(
      page,
      "Error creating coupon",
      "There was a problem creating the coupon. Please try again.",
    );
    await expectNoAxeViolations(page);
    await expect(form.getByLabel("Code")).toHaveValue("OFFLINE10");
  });

  test("changing a booking's status: 'An unknown error occurred'", async ({
    page,
    admin,
    customer,
  }) => {
    const date = day(4);
    const id = insertSession(customer, { date, status: "PENDING_PAYMENT" });
    await signIn(page, admin);
    await page.goto(`/admin/bookings?date=${date}`);
    const row = page.locator(`tr[data-booking-id="${id}"]`);
    await cutOff(page, "/admin/bookings.data");
    await row.getByRole("button", { name: "Mark for Review" }).click();
    await expectFailure(page, "Error updating booking", "An unknown error occurred");
    await expectNoAxeViolations(page);
    await expect(row).toContainText("Pending Payment");
  });
});
