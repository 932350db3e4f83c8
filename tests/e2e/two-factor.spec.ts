import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { users } from "#db/schema";
import {
  accountMenu,
  createUser,
  db,
  expect,
  expectNoAxeViolations,
  signIn,
  type TestUser,
  test,
  toast,
} from "#tests/e2e/fixtures";
import { currentCode, storedTotpSecret } from "#tests/factories/two-factor";

/**
 * Two-factor sign-in (docs/product.md "Accounts and sign-ins"), with JavaScript on and off: set up
 * from Profile Settings, signing in with the app's code and with a recovery code, and staff sent to
 * set it up before any admin page (the e2e server requires it of staff, as production does).
 */

/** A code that is not the current one. */
async function wrongCode(secret: string) {
  return (await currentCode(secret)) === "000000" ? "111111" : "000000";
}

/** From the setup page's Set Up button to the recovery codes; returns them. */
async function setUpTwoFactor(page: Page, user: TestUser): Promise<string[]> {
  await expect(page.getByRole("heading", { name: "Two-factor sign-in is off" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();

  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = storedTotpSecret(db(), user.id);
  await expect(page.getByTestId("totp-secret")).toHaveText(secret);
  await expectNoAxeViolations(page);

  const code = page.getByLabel("Code from the app");
  await code.fill(await wrongCode(secret));
  await page.getByRole("button", { name: "Turn On" }).click();
  await expect(page.getByText("That code does not match.").first()).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Code from the app").fill(await currentCode(secret));
  await page.getByRole("button", { name: "Turn On" }).click();
  const list = page.getByRole("list", { name: "Recovery codes" });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  await expectNoAxeViolations(page);
  return list.getByRole("listitem").allTextContents();
}

/** The password step of /auth, which leads to the code step. */
async function passwordStep(page: Page, user: TestUser) {
  await page.goto("/auth");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(
    page.getByRole("heading", { name: "Two-factor sign-in", exact: true }),
  ).toBeVisible();
  await expect(page.getByLabel("Authentication code")).toBeVisible();
}

test.describe("two-factor sign-in", () => {
  // Whole journeys with eight axe runs: 52-61 s with JavaScript on when the two cores are shared.
  test.describe.configure({ timeout: 120_000 });
  test("is set up from Profile Settings, then signs in with a recovery code once", async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await page.goto("/dashboard?tab=profile");
    await expect(
      page.getByRole("heading", { name: "Two-factor sign-in", exact: true }),
    ).toBeVisible();
    await page.getByRole("link", { name: "Set up two-factor sign-in" }).click();
    await expect(page).toHaveURL(/\/dashboard\/two-factor$/);
    const codes = await setUpTwoFactor(page, customer);

    await page.getByRole("link", { name: "I have saved them" }).click();
    await expect(page.getByText("Recovery codes left: 10.")).toBeVisible();

    await page.context().clearCookies();
    await passwordStep(page, customer);
    await expectNoAxeViolations(page);
    await page.getByLabel("Authentication code").fill("zzzzz-zzzzz");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That code is not valid").first()).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel("Authentication code").fill(codes[0] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(accountMenu(page)).toBeVisible();

    // The same recovery code does not work twice.
    await page.context().clearCookies();
    await passwordStep(page, customer);
    await page.getByLabel("Authentication code").fill(codes[0] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That code is not valid").first()).toBeVisible();
  });

  test("signs in with the app's code after the password", async ({ page }, testInfo) => {
    const user = await createUser(testInfo, { twoFactor: true });
    await passwordStep(page, user);
    await page
      .getByLabel("Authentication code")
      .fill(await currentCode(storedTotpSecret(db(), user.id)));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText("Login successful");
    await expect(accountMenu(page)).toBeVisible();
  });

  test("after 20 wrong codes in a row the app's code is refused; a recovery code signs in", async ({
    page,
  }, testInfo) => {
    const user = await createUser(testInfo, { twoFactor: true });
    // As 20 wrong codes leave it (counted in tests/routes/two-factor.test.ts).
    db().update(users).set({ twoFactorFailures: 20 }).where(eq(users.id, user.id)).run();
    await passwordStep(page, user);
    await page
      .getByLabel("Authentication code")
      .fill(await currentCode(storedTotpSecret(db(), user.id)));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(
      page.getByText("codes from your authenticator app no longer work for this account").first(),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    // The recovery codes enableTwoFactor gives every test account.
    await page.getByLabel("Authentication code").fill("aaaaa-bbbbb");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(accountMenu(page)).toBeVisible();
  });

  test("a different account can be chosen at the code step", async ({ page }, testInfo) => {
    const user = await createUser(testInfo, { twoFactor: true });
    await passwordStep(page, user);
    await page.getByRole("button", { name: "Sign in with a different account" }).click();
    await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
    await expect(page.getByLabel("Username")).toBeVisible();
  });

  test("staff without it are sent to set it up before any admin page", async ({
    page,
  }, testInfo) => {
    const admin = await createUser(testInfo, { isAdmin: true, twoFactor: false });
    await signIn(page, admin);
    await page.goto("/admin/bookings");
    await expect(page).toHaveURL(/\/dashboard\/two-factor$/);
    await expect(
      page.getByText(
        "Staff accounts must turn on two-factor sign-in before opening the admin pages.",
      ),
    ).toBeVisible();
    await setUpTwoFactor(page, admin);
    expect(
      db().select().from(users).where(eq(users.id, admin.id)).get()?.totpEnabledAt,
    ).not.toBeNull();

    await page.goto("/admin/bookings");
    await expect(page).toHaveURL(/\/admin\/bookings$/);
  });
});
