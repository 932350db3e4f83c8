import type { ConsoleMessage, Page } from "@playwright/test";
import { expect, loginThroughForm, test, signIn } from "#tests/e2e/fixtures";

/** Every `<script ...>` start tag in a document. */
function scriptTags(html: string): string[] {
  return html.match(/<script\b[^>]*>/gi) ?? [];
}

/** Collects what the browser says about blocked content (CSP reports go to the console). */
function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message: ConsoleMessage) => {
    const text = message.text();
    if (/Content[- ]Security[- ]Policy/i.test(text)) {
      violations.push(`${message.type()}: ${text}`);
    }
  });
  return violations;
}

test.describe("security headers", () => {
  for (const path of ["/", "/auth", "/no-such-page"]) {
    test(`${path}: a nonce-based CSP covers every script`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response).not.toBeNull();
      if (!response) return;
      const headers = response.headers();
      const csp = headers["content-security-policy"] ?? "";
      const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, `CSP was: ${csp}`).toBeTruthy();
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBeTruthy();

      const tags = scriptTags(await response.text());
      expect(tags.length).toBeGreaterThan(0);
      const withoutNonce = tags.filter((tag) => !tag.includes(`nonce="${nonce}"`));
      expect(withoutNonce).toEqual([]);

      // A second load gets a fresh nonce.
      const again = await page.goto(path);
      const secondCsp = again?.headers()["content-security-policy"] ?? "";
      expect(secondCsp).not.toContain(`'nonce-${nonce}'`);
    });
  }

  test("no CSP violations while browsing", async ({ page, customer }) => {
    const violations = watchCspViolations(page);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Sign In" })
      .click();
    await expect(page).toHaveURL(/\/auth$/);
    await loginThroughForm(page, customer);
    await page.goto("/dashboard");
    await expect(page.locator("#dashboard")).toBeVisible();
    // Let late scripts, styles and media settle before judging.
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
  });

  test("signed-in pages are not cached", async ({ page, customer }) => {
    await signIn(page, customer);
    const response = await page.goto("/dashboard");
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
  });
});
