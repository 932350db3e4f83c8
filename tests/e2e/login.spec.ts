import { E2E_LOGIN_ACCOUNT_LIMIT } from "#tests/e2e/env";
import { accountMenu, expectNoAxeViolations, expect, test, toast } from "#tests/e2e/fixtures";

test.describe("login", () => {
  test("signs in, greets and keeps the sign-in", async ({ page, customer, context }) => {
    await page.goto("/auth");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
    await page.getByLabel("Username").fill(customer.username);
    await page.getByLabel("Password", { exact: true }).fill(customer.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText("Login successful");
    await expect(toast(page)).toContainText("Welcome back!");
    await expect(accountMenu(page)).toContainText(customer.fullName);

    // The Secure, HttpOnly sign-in cookie stuck on http://localhost and survives a reload.
    const signInCookie = (await context.cookies()).find((cookie) => cookie.name === "__session");
    expect(signInCookie).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax" });
    await page.reload();
    await expect(accountMenu(page)).toContainText(customer.fullName);
    await expect(page.getByRole("link", { name: "Sign In" })).toHaveCount(0);
  });

  test("a wrong password is refused and stays on /auth", async ({ page, customer }) => {
    await page.goto("/auth");
    await page.getByLabel("Username").fill(customer.username);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();

    await expect(page.locator("#login").getByText("Invalid username or password")).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect(accountMenu(page)).toHaveCount(0);
  });

  test("an empty username is reported on its field", async ({ page }) => {
    await page.goto("/auth");
    await page.getByLabel("Password", { exact: true }).fill("whatever-password");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();

    const username = page.getByLabel("Username");
    await expect(page.getByText("Username is required")).toBeVisible();
    await expect(username).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("after too many wrong passwords the account waits, and the right one is refused the same", async ({
    page,
    customer,
  }) => {
    const signInWith = async (password: string) => {
      await page.getByLabel("Username").fill(customer.username);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Sign In", exact: true }).click();
    };
    await page.goto("/auth");
    for (let guess = 1; guess <= E2E_LOGIN_ACCOUNT_LIMIT; guess += 1) {
      await signInWith(`wrong-guess-${guess}`);
      await expect(page.locator("#login").getByText("Invalid username or password")).toBeVisible();
    }
    await signInWith(customer.password);

    const message = "Too many attempts. Please try again in 1 minute.";
    await expect(page.locator("#login").getByText(message)).toBeVisible();
    await expect(page.locator("#login").getByText("Invalid username or password")).toHaveCount(0);
    await expect(page).toHaveURL(/\/auth$/);
    await expect(accountMenu(page)).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});
