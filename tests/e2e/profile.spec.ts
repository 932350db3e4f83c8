import type { Page } from "@playwright/test";
import { createSignIn } from "#tests/factories/sign-in";
import {
  accountMenu,
  chooseFromAccountMenu,
  db,
  expect,
  expectNoAxeViolations,
  loginThroughForm,
  test,
  toast,
  signIn,
  tabLink,
} from "#tests/e2e/fixtures";

/**
 * Profile Settings (docs/product.md "Screens", "Validation" and "Messages"), with JavaScript on and
 * off.
 */

function profileForm(page: Page) {
  return page.locator("form#profile");
}

function passwordForm(page: Page) {
  return page.locator("form#password");
}

async function openProfileTab(page: Page) {
  await page.goto("/dashboard?tab=profile");
  await expect(page.getByRole("heading", { name: "Personal details" })).toBeVisible();
}

test.describe("profile settings", () => {
  test("edits the profile; the account menu and the booking form follow", async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await openProfileTab(page);
    await expect(tabLink(page, "Profile Settings").first()).toHaveAttribute("aria-current", "page");
    const form = profileForm(page);
    await expect(form.getByLabel("First name")).toHaveValue(customer.firstName);
    await expect(form.getByLabel("Email")).toHaveValue(customer.email);
    await expect(form.getByLabel("I am a stakeholder")).not.toBeChecked();
    await expectNoAxeViolations(page);

    await form.getByLabel("First name").fill("Grace");
    await form.getByLabel("Last name").fill("Hopper");
    await form.getByLabel("Email").fill("grace@example.com");
    await form.getByLabel("Phone number").fill("+1 (404) 555-0199");
    await form.getByLabel("Business name (optional)").fill("Compiler Cast");
    await form.getByLabel("I am a stakeholder").check();
    await form.getByRole("button", { name: "Save Changes" }).click();

    await expect(toast(page)).toContainText("Profile updated");
    await expect(toast(page)).toContainText("Your profile has been updated successfully.");
    await expect(page).toHaveURL(/\/dashboard\?tab=profile$/);
    await expect(form.getByLabel("First name")).toHaveValue("Grace");
    await expect(form.getByLabel("I am a stakeholder")).toBeChecked();
    await expect(accountMenu(page)).toContainText("Grace Hopper");
    await accountMenu(page).click();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByText("Compiler Cast"),
    ).toBeVisible();

    await page.goto("/");
    const booking = page.locator("#booking-form");
    await expect(booking.getByLabel("First name")).toHaveValue("Grace");
    await expect(booking.getByLabel("Last name")).toHaveValue("Hopper");
    await expect(booking.getByLabel("Email")).toHaveValue("grace@example.com");
    await expect(booking.getByLabel("Phone number")).toHaveValue("+1 (404) 555-0199");
    await expect(booking.getByLabel("Business name (optional)")).toHaveValue("Compiler Cast");
    await expect(booking.getByLabel("Yes ($150/hour)")).toBeChecked();
  });

  test("shows a refused value on its field and keeps the stored profile", async ({
    page,
    customer,
  }, testInfo) => {
    await signIn(page, customer);
    await openProfileTab(page);
    const form = profileForm(page);
    await form.getByLabel("First name").fill("Grace");
    await form.getByLabel("Phone number").fill("12");
    await form.getByRole("button", { name: "Save Changes" }).click();

    const phone = form.getByLabel("Phone number");
    await expect(form.getByText("Please enter a valid phone number")).toBeVisible();
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    await expect(phone).toHaveValue("12");
    if (testInfo.project.name === "js-off") {
      // Without JavaScript the server refused it: its answer carries the error toast of
      // docs/product.md "Messages".
      await expect(toast(page)).toContainText("Error");
      await expect(toast(page)).toContainText("Please enter a valid phone number");
    }
    await expectNoAxeViolations(page);
    await expect(accountMenu(page)).toContainText(customer.fullName);
  });

  test("changes the password, then signs in with the new one", async ({
    page,
    customer,
  }, testInfo) => {
    await signIn(page, customer);
    await openProfileTab(page);
    const form = passwordForm(page);

    await form.getByLabel("Current password").fill("not-the-password");
    await form.getByLabel("New password", { exact: true }).fill("brand-new-secret");
    await form.getByLabel("Confirm new password").fill("brand-new-secret");
    await form.getByRole("button", { name: "Change Password" }).click();
    await expect(form.getByText("Your current password is incorrect")).toBeVisible();
    await expect(form.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
    await expect(toast(page)).toContainText("Error");
    if (testInfo.project.name === "js-off") {
      // The server's answer never carries a password back into the page.
      await expect(form.getByLabel("New password", { exact: true })).toHaveValue("");
      await expect(form.getByLabel("Current password")).toHaveValue("");
    }
    await expectNoAxeViolations(page);

    await form.getByLabel("Current password").fill(customer.password);
    await form.getByLabel("New password", { exact: true }).fill("brand-new-secret");
    await form.getByLabel("Confirm new password").fill("brand-new-secret");
    await form.getByRole("button", { name: "Change Password" }).click();
    await expect(toast(page)).toContainText("Password changed");
    await expect(toast(page)).toContainText(
      "Your other devices have been signed out, and your calendar link is new",
    );
    // This browser got the fresh sign-in: still signed in.
    await page.reload();
    await expect(accountMenu(page)).toContainText(customer.fullName);

    await chooseFromAccountMenu(page, "Logout");
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
    // The new password is the one the login form now takes.
    await loginThroughForm(page, { username: customer.username, password: "brand-new-secret" });
  });

  test("Sign out of all devices ends the other sign-ins and keeps this one", async ({
    page,
    customer,
    request,
  }) => {
    await signIn(page, customer);
    // Another device of the same person, and its cookie.
    const other = `__session=${createSignIn(db(), { userId: customer.id }).id}`;
    const asOther = () => request.get("/api/user", { headers: { Cookie: other } });
    expect((await asOther()).status()).toBe(200);

    await openProfileTab(page);
    await expect(page.getByRole("heading", { name: "Signed in elsewhere?" })).toBeVisible();
    await page.getByRole("button", { name: "Sign out of all devices" }).click();
    await expect(toast(page)).toContainText("Signed out of all other devices");
    await expect(toast(page)).toContainText("Every other browser and device has to sign in again");
    await expect(page).toHaveURL(/\/dashboard\?tab=profile$/);
    await expectNoAxeViolations(page);

    expect((await asOther()).status()).toBe(401);
    // This browser is still signed in.
    await page.reload();
    await expect(accountMenu(page)).toContainText(customer.fullName);
  });
});
