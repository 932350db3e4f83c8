import { expect, login, test, signIn } from "#tests/e2e/fixtures";

const TABS = ["Bookings", "Sessions", "Sales", "Users", "Coupons", "Services", "Support"];
const TOOLS = ["Blocked times", "Emails"];

test.describe("the admin layout", () => {
  test("opens Bookings from /admin and moves between every tab by its link", async ({
    page,
    admin,
  }) => {
    await signIn(page, admin);
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/admin\/bookings$/);
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    for (const name of [...TABS, ...TOOLS]) {
      await nav.getByRole("link", { name, exact: true }).click();
      const slug = name.toLowerCase().replace(" ", "-");
      await expect(page).toHaveURL(new RegExp(`/admin/${slug}$`));
      await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
    }
  });

  test("hides the tab labels below 768 px and keeps their names", async ({ page, admin }) => {
    await login(page, admin);
    await page.setViewportSize({ width: 767, height: 800 });
    await page.goto("/admin/bookings");
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    const sales = nav.getByRole("link", { name: "Sales", exact: true });
    await expect(sales).toBeVisible();
    const label = sales.getByText("Sales", { exact: true });
    // Visually hidden (a 1 px clip), still the link's accessible name.
    expect((await label.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
    // The page itself never scrolls sideways on a phone.
    await page.setViewportSize({ width: 320, height: 720 });
    const overflowing = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll("body *")]
        .filter((element) => element.getBoundingClientRect().right > width + 0.5)
        .filter(
          (element) => !element.parentElement?.closest("[data-scroll-region], .overflow-x-auto"),
        )
        .map((element) => `${element.tagName}.${element.className}`.slice(0, 120));
    });
    expect(overflowing).toEqual([]);

    await page.setViewportSize({ width: 768, height: 800 });
    expect((await label.boundingBox())?.width ?? 0).toBeGreaterThan(20);
  });
});

test.describe("an error inside a layout keeps its navigation", () => {
  // A booking that does not exist: the tab's loader answers 404, a real failure of the page.
  const MISSING = 999_999_999;

  test("a missing booking shows under the admin title and tabs, which still work", async ({
    page,
    admin,
  }) => {
    await login(page, admin);
    const response = await page.goto(`/admin/bookings/${MISSING}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 2, name: "404 Page Not Found" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    await nav.getByRole("link", { name: "Sessions", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/sessions$/);
    await expect(page.getByRole("heading", { level: 2, name: "404 Page Not Found" })).toHaveCount(
      0,
    );
    await expect(nav.getByRole("link", { name: "Sessions", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  test("a missing session shows over the customer's dashboard, whose tabs still work", async ({
    page,
    customer,
  }) => {
    await login(page, customer);
    const response = await page.goto(`/dashboard/sessions/${MISSING}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 2, name: "404 Page Not Found" })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await nav.getByRole("link", { name: "Profile Settings" }).click();
    await expect(page).toHaveURL(/\/dashboard\?tab=profile$/);
    await expect(page.getByRole("heading", { level: 2, name: "404 Page Not Found" })).toHaveCount(
      0,
    );
    await expect(nav.getByRole("link", { name: "Profile Settings" })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });
});
