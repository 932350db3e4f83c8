import { expect, expectNoAxeViolations, login, signIn, tabLink, test } from "#tests/e2e/fixtures";

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
      await tabLink(nav, name).click();
      const slug = name.toLowerCase().replace(" ", "-");
      await expect(page).toHaveURL(new RegExp(`/admin/${slug}$`));
      await expect(tabLink(nav, name)).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
    }
  });

  test("hides the tab labels below 768 px and keeps their names", async ({ page, admin }) => {
    await login(page, admin);
    await page.setViewportSize({ width: 767, height: 800 });
    await page.goto("/admin/bookings");
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    const sales = tabLink(nav, "Sales");
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

test.describe("the tabs once the page runs: Headless UI's", { tag: "@js-on-only" }, () => {
  test("the admin's: the arrows move between them, Enter or Space opens one", async ({
    page,
    admin,
  }) => {
    await login(page, admin);
    await page.goto("/admin/bookings");
    const tabs = page.getByRole("navigation", { name: "Admin sections" }).getByRole("tablist");
    const bookings = tabs.getByRole("tab", { name: "Bookings", exact: true });
    const sessions = tabs.getByRole("tab", { name: "Sessions", exact: true });
    const support = tabs.getByRole("tab", { name: "Support", exact: true });
    await expect(bookings).toHaveAttribute("aria-selected", "true");
    await expectNoAxeViolations(page);

    await bookings.focus();
    await page.keyboard.press("ArrowRight");
    await expect(sessions).toBeFocused();
    // Manual activation: moving the focus opens nothing.
    await expect(page).toHaveURL(/\/admin\/bookings$/);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/admin\/sessions$/);
    await expect(sessions).toHaveAttribute("aria-selected", "true");
    await expect(sessions).toHaveAttribute("aria-current", "page");
    await expect(bookings).toHaveAttribute("aria-selected", "false");

    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect(support).toBeFocused();
    await page.keyboard.press(" ");
    await expect(page).toHaveURL(/\/admin\/support$/);
    await expect(support).toHaveAttribute("aria-selected", "true");
  });

  test("on a tool's page no tab is open: the tabs stay links", async ({ page, admin }) => {
    await login(page, admin);
    await page.goto("/admin/emails");
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    await expect(nav.getByRole("link", { name: "Emails", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(nav.getByRole("tablist")).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Bookings", exact: true })).toBeVisible();
  });

  test("the customer's dashboard: the arrows move between them, Enter opens one", async ({
    page,
    customer,
  }) => {
    await login(page, customer);
    await page.goto("/dashboard?tab=bookings");
    const tabs = page.getByRole("navigation", { name: "Dashboard" }).getByRole("tablist");
    const mySessions = tabs.getByRole("tab", { name: "My Sessions" });
    const support = tabs.getByRole("tab", { name: "Help & Support" });
    await expect(mySessions).toHaveAttribute("aria-selected", "true");
    await expectNoAxeViolations(page);

    await mySessions.focus();
    await page.keyboard.press("End");
    await expect(support).toBeFocused();
    await expect(page).toHaveURL(/\/dashboard\?tab=bookings$/);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard\?tab=support$/);
    await expect(support).toHaveAttribute("aria-selected", "true");
    await expect(support).toHaveAttribute("aria-current", "page");
  });
});

test("without JavaScript the tabs are links, the open one the current page", {
  tag: "@js-off-only",
}, async ({ page, admin }) => {
  await login(page, admin);
  await page.goto("/admin/sales");
  const nav = page.getByRole("navigation", { name: "Admin sections" });
  await expect(nav.getByRole("tablist")).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Sales", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(nav.getByRole("link", { name: "Users", exact: true })).not.toHaveAttribute(
    "tabindex",
    "-1",
  );
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
    await tabLink(nav, "Sessions").click();
    await expect(page).toHaveURL(/\/admin\/sessions$/);
    await expect(page.getByRole("heading", { level: 2, name: "404 Page Not Found" })).toHaveCount(
      0,
    );
    await expect(tabLink(nav, "Sessions")).toHaveAttribute("aria-current", "page");
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
    await tabLink(nav, "Profile Settings").click();
    await expect(page).toHaveURL(/\/dashboard\?tab=profile$/);
    await expect(page.getByRole("heading", { level: 2, name: "404 Page Not Found" })).toHaveCount(
      0,
    );
    await expect(tabLink(nav, "Profile Settings")).toHaveAttribute("aria-current", "page");
  });
});
