import { count, eq } from "drizzle-orm";
import { signIns } from "#db/schema";
import {
  accountMenu,
  chooseFromAccountMenu,
  db,
  expect,
  expectNoAxeViolations,
  login,
  test,
  toast,
  signIn,
} from "#tests/e2e/fixtures";

function signInCount(userId: number): number | undefined {
  return db().select({ total: count() }).from(signIns).where(eq(signIns.userId, userId)).get()
    ?.total;
}

test.describe("logout", () => {
  test("ends the sign-in and returns home", async ({ page, customer }) => {
    await login(page, customer);
    expect(signInCount(customer.id)).toBe(1);

    await chooseFromAccountMenu(page, "Logout");

    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText("Logged out successfully");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" }),
    ).toBeVisible();
    await expect(accountMenu(page)).toHaveCount(0);
    expect(signInCount(customer.id)).toBe(0);

    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe("the account menu", () => {
  test("with JavaScript is Headless UI's menu: arrow keys move through it, Escape closes it", {
    tag: "@js-on-only",
  }, async ({ page, customer }) => {
    await login(page, customer);
    const nav = page.getByRole("navigation", { name: "Main" });
    const button = nav.getByRole("button", { name: /account menu/ });
    await button.click();
    const menu = nav.getByRole("menu");
    await expect(menu.getByRole("menuitem")).toHaveText([
      "My Account",
      "My Sessions",
      "Profile Settings",
      "Help",
      "Logout",
    ]);
    await expectNoAxeViolations(page);
    // The menu keeps the focus and names the active item.
    const active = async (name: string) =>
      expect(menu).toHaveAttribute(
        "aria-activedescendant",
        (await menu.getByRole("menuitem", { name }).getAttribute("id")) ?? "",
      );
    await page.keyboard.press("ArrowDown");
    await active("My Account");
    await page.keyboard.press("ArrowDown");
    await active("My Sessions");
    await page.keyboard.press("Escape");
    await expect(menu).toHaveCount(0);
    await expect(button).toBeFocused();
  });
});

test.describe("redirects", () => {
  for (const path of ["/dashboard", "/admin", "/admin/dashboard"]) {
    test(`a visitor opening ${path} is sent to /auth`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
    });
  }

  test("a customer opening the admin pages is sent to /dashboard", async ({ page, customer }) => {
    await login(page, customer);
    for (const path of ["/admin", "/admin/dashboard"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.locator("#dashboard")).toBeAttached();
      await expect(page.getByText("Admin Dashboard")).toHaveCount(0);
    }
  });

  test("a customer sees the dashboard section", async ({ page, customer }) => {
    await signIn(page, customer);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator("#dashboard")).toBeVisible();
    await page.goto("/");
    await expect(page.locator("#dashboard")).toBeAttached();
  });

  test("an admin sees the admin dashboard", async ({ page, admin }) => {
    await login(page, admin);
    for (const path of ["/admin", "/admin/dashboard"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/admin\/bookings$/);
      await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    }
  });

  test("a signed-in user opening /auth goes home", async ({ page, customer }) => {
    await signIn(page, customer);
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/$/);
    await expect(accountMenu(page)).toBeVisible();
    await page.goto("/auth?tab=register");
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("not found", () => {
  for (const path of ["/no-such-page", "/booking-canceled", "/admin/no-such-page"]) {
    test(`${path} answers 404 with the not-found screen`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(
        page.getByRole("heading", { level: 1, name: "404 Page Not Found" }),
      ).toBeVisible();
      await page.getByRole("link", { name: "Back to the home page" }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  }
});
