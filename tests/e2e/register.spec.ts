import type { Page, TestInfo } from "@playwright/test";
import {
  accountMenu,
  openAccountMenu,
  countUsers,
  expect,
  expectNoAxeViolations,
  test,
  toast,
  uniqueUsername,
} from "#tests/e2e/fixtures";

type Registration = {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  phoneNumber: string;
  businessName?: string;
  password: string;
  confirmPassword: string;
};

function registration(testInfo: TestInfo, overrides: Partial<Registration> = {}): Registration {
  const username = overrides.username ?? uniqueUsername(testInfo, "reg");
  return {
    firstName: "Octavia",
    lastName: "Butler",
    username,
    email: `${username}@example.com`,
    phoneNumber: "(404) 555-0199",
    password: "kindred-parable-1979",
    confirmPassword: "kindred-parable-1979",
    ...overrides,
  };
}

/** Opens the Register tab the way a visitor does: /auth, then the Register tab link. */
async function openRegisterTab(page: Page) {
  await page.goto("/auth");
  await page
    .getByRole("navigation", { name: "Sign in or register" })
    .getByRole("link", { name: "Register" })
    .click();
  await expect(page).toHaveURL(/\/auth\?tab=register$/);
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
}

async function submitRegistration(page: Page, values: Registration) {
  await page.getByLabel("First name").fill(values.firstName);
  await page.getByLabel("Last name").fill(values.lastName);
  await page.getByLabel("Username").fill(values.username);
  await page.getByLabel("Email").fill(values.email);
  await page.getByLabel("Phone number").fill(values.phoneNumber);
  if (values.businessName) await page.getByLabel("Business name").fill(values.businessName);
  await page.getByLabel("Password", { exact: true }).fill(values.password);
  await page.getByLabel("Confirm password").fill(values.confirmPassword);
  await page.getByRole("button", { name: "Create Account" }).click();
}

test.describe("register", () => {
  test("a password that is easy to guess is refused with the reason", async ({
    page,
  }, testInfo) => {
    const values = registration(testInfo, {
      password: "password123",
      confirmPassword: "password123",
    });
    await openRegisterTab(page);
    await expect(page.getByText("At least 8 characters, and not easy to guess.")).toBeVisible();
    await submitRegistration(page, values);

    const password = page.getByLabel("Password", { exact: true });
    await expect(
      page.getByText(
        "This password is too easy to guess: it is a commonly used password. Try three or four unrelated words, or a longer password.",
      ),
    ).toBeVisible();
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    expect(countUsers(values.username)).toBe(0);
    await expectNoAxeViolations(page);
  });

  test("a personal account is created and signed in", async ({ page }, testInfo) => {
    const values = registration(testInfo);
    await openRegisterTab(page);
    await submitRegistration(page, values);

    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText("Registration successful");
    await expect(toast(page)).toContainText(`Welcome to ATL Creator Studio, ${values.firstName}!`);
    await expect(accountMenu(page)).toContainText(`${values.firstName} ${values.lastName}`);
    const menu = await openAccountMenu(page);
    await expect(menu.getByText("Personal Account")).toBeVisible();
    expect(countUsers(values.username)).toBe(1);
  });

  test("a business account shows its business name", async ({ page }, testInfo) => {
    const values = registration(testInfo, { businessName: "Kindred Media LLC" });
    await openRegisterTab(page);
    await submitRegistration(page, values);

    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText("Registration successful");
    const menu = await openAccountMenu(page);
    await expect(menu).toContainText(`${values.firstName} ${values.lastName}`);
    await expect(menu).toContainText("Kindred Media LLC");
    await expect(menu).not.toContainText("Personal Account");
    expect(countUsers(values.username)).toBe(1);
  });

  test("mismatched passwords are refused", async ({ page }, testInfo) => {
    const values = registration(testInfo, { confirmPassword: "something-else-entirely" });
    await openRegisterTab(page);
    await submitRegistration(page, values);

    await expect(page.getByText("Passwords don't match")).toBeVisible();
    await expect(page.getByLabel("Confirm password")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    expect(countUsers(values.username)).toBe(0);
  });

  test("a short phone number is refused", async ({ page }, testInfo) => {
    const values = registration(testInfo, { phoneNumber: "404-555" });
    await openRegisterTab(page);
    await submitRegistration(page, values);

    await expect(page.getByText("Please enter a valid phone number")).toBeVisible();
    await expect(page.getByLabel("Phone number")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    expect(countUsers(values.username)).toBe(0);
  });

  test("a blank required field is refused in our words", async ({ page }, testInfo) => {
    const values = { ...registration(testInfo), username: "" };
    await openRegisterTab(page);
    await submitRegistration(page, values);

    await expect(page.getByText("Username is required")).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Username")).toHaveAccessibleDescription("Username is required");
    // Once zod's own "Invalid input: expected string, received undefined".
    await expect(page.getByText(/Invalid input|expected string|received undefined/)).toHaveCount(0);
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
  });

  test("a taken username is refused", async ({ page, customer }, testInfo) => {
    const values = registration(testInfo, { username: customer.username });
    await openRegisterTab(page);
    await submitRegistration(page, values);

    await expect(page.locator("#register").getByText("Username already exists")).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
    expect(countUsers(customer.username)).toBe(1);
    // Nobody was signed in as the old account either.
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
  });
});
