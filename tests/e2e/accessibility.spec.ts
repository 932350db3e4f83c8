import {
  addDays,
  db,
  expect,
  expectNoAxeViolations,
  signIn,
  studioToday,
  test,
} from "#tests/e2e/fixtures";
import { createSeries } from "#tests/factories/series";

/** axe with the WCAG 2.2 AA rule set on every page, signed out, signed in and as admin. */
test.describe("accessibility (axe, WCAG 2.2 AA)", () => {
  for (const path of ["/", "/auth", "/auth?tab=register"]) {
    test(`${path} as a visitor`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }

  test("the not-found page", async ({ page }) => {
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("the register form showing its errors", async ({ page }) => {
    await page.goto("/auth?tab=register");
    await page.getByLabel("Phone number").fill("123");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Please enter a valid phone number")).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("/dashboard and / signed in", async ({ page, customer }) => {
    await signIn(page, customer);
    await page.goto("/dashboard");
    await expect(page.locator("#dashboard")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto("/");
    await expectNoAxeViolations(page);
  });

  test("/admin as an admin", async ({ page, admin }) => {
    await signIn(page, admin);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  // A series session's siblings (docs/product.md "Weekly series"); days no other spec books.
  test("a series session on Session Details and on its admin page", async ({
    page,
    customer,
    admin,
  }) => {
    const { bookings: sessions } = createSeries(db(), {
      user: customer,
      firstDate: addDays(studioToday(), 320),
      time: "07:00",
      count: 3,
      hours: 2,
      hourlyRate: 200,
    });
    const second = sessions[1]?.id;
    await signIn(page, customer);
    await page.goto(`/dashboard/sessions/${second}`);
    await expect(
      page.getByRole("heading", { name: "Session 2 of 3 of your weekly series" }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await signIn(page, admin);
    await page.goto(`/admin/bookings/${second}`);
    await expect(
      page.getByRole("heading", { name: "Weekly series · session 2 of 3" }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
