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
