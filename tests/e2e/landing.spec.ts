import { expect, type Page } from "@playwright/test";
import { jsOn, test } from "#tests/e2e/fixtures";

const SECTIONS = ["features", "who-is-it-for", "faq", "booking"] as const;
const NAV_LINKS = [
  { label: "Features", href: "/#features" },
  { label: "Who It's For", href: "/#who-is-it-for" },
  { label: "FAQ", href: "/#faq" },
  { label: "Book Now", href: "/#booking" },
] as const;

/** The main navigation's links that are on screen (desktop row or the open mobile menu). */
function visibleNavLink(page: Page, name: string) {
  return page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name, exact: true })
    .filter({ visible: true });
}

test.describe("landing page", () => {
  test("has its heading, sections and section links", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    for (const id of SECTIONS) {
      await expect(page.locator(`#${id}`)).toBeAttached();
    }
    for (const link of NAV_LINKS) {
      await expect(visibleNavLink(page, link.label)).toHaveAttribute("href", link.href);
    }
  });

  test("visitors see Sign In and no dashboard section", async ({ page }) => {
    await page.goto("/");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" }),
    ).toBeVisible();
    await expect(page.locator("#dashboard")).toHaveCount(0);
  });

  test("the FAQ link from /auth lands on the FAQ section of /", async ({ page }) => {
    await page.goto("/auth");
    await visibleNavLink(page, "FAQ").click();
    await expect(page).toHaveURL(/\/#faq$/);
    await expect(page.locator("#faq")).toBeInViewport();
  });

  test("Watch Now plays the promo: in a dialog with JavaScript, as the file without", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    const link = page.getByRole("link", { name: /Watch Now/ });
    await expect(link).toHaveAttribute("href", "/videos/promo.mp4");
    if (!jsOn(testInfo)) return; // the browser plays the linked file itself
    // Until the page hydrates (after its first paint) the link is a plain link, as without it.
    await expect
      .poll(() => link.evaluate((a) => Object.keys(a).some((k) => k.startsWith("__reactProps"))))
      .toBe(true);
    await link.click();
    const dialog = page.getByRole("dialog", { name: "ATL Creator Studio in 9 seconds" });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator("video")).toHaveAttribute("src", "/videos/promo.mp4");
    await expect(dialog.locator("track")).toHaveAttribute("src", "/videos/promo.vtt");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(link).toBeFocused();
  });

  test("the FAQ opens one answer at a time", async ({ page }) => {
    await page.goto("/");
    const items = page.locator('#faq details[name="faq"]');
    expect(await items.count()).toBeGreaterThanOrEqual(2);
    const first = items.nth(0);
    const second = items.nth(1);

    await second.locator("summary").click();
    await expect(second).toHaveAttribute("open");
    await expect(first).not.toHaveAttribute("open");

    await first.locator("summary").click();
    await expect(first).toHaveAttribute("open");
    await expect(second).not.toHaveAttribute("open");

    // Clicking the open item closes it.
    await first.locator("summary").click();
    await expect(first).not.toHaveAttribute("open");
    await expect(page.locator('#faq details[name="faq"][open]')).toHaveCount(0);
  });
});

test.describe("landing page on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the menu button opens the section links", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const toggle = nav.locator("summary", { hasText: "Menu" });
    // Collapsed: no section link on screen, only the toggle.
    await expect(toggle).toBeVisible();
    for (const link of NAV_LINKS) {
      await expect(visibleNavLink(page, link.label)).toHaveCount(0);
    }

    await toggle.click();
    for (const link of NAV_LINKS) {
      await expect(visibleNavLink(page, link.label)).toBeVisible();
      await expect(visibleNavLink(page, link.label)).toHaveAttribute("href", link.href);
    }

    await visibleNavLink(page, "FAQ").click();
    await expect(page).toHaveURL(/\/#faq$/);
    await expect(page.locator("#faq")).toBeInViewport();
  });
});
