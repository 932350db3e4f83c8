import type { ConsoleMessage, Page } from "@playwright/test";
import { expect, loginThroughForm, test, signIn } from "#tests/e2e/fixtures";
import { inlineScriptHashes, scriptSources } from "#tests/setup/csp";

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
    test(`${path}: the CSP allows the page's own inline scripts by their hashes`, async ({
      page,
    }) => {
      const response = await page.goto(path);
      expect(response).not.toBeNull();
      if (!response) return;
      const headers = response.headers();
      const csp = headers["content-security-policy"] ?? "";
      const sources = scriptSources(csp);
      expect(sources.join(" "), `CSP was: ${csp}`).not.toMatch(/nonce|unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBeTruthy();

      const hashes = inlineScriptHashes(await response.text());
      expect(hashes.length).toBeGreaterThan(0);
      expect(hashes.filter((hash) => !sources.includes(hash))).toEqual([]);
    });
  }

  test.describe("with JavaScript", { tag: "@js-on-only" }, () => {
    test("an inline script the page did not send is refused, and the page still hydrates", async ({
      page,
    }) => {
      const violations = watchCspViolations(page);
      // As markup injected into the page would arrive: inside the HTML, under the page's CSP.
      await page.route("**/", async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace(
          "<main",
          "<script>document.documentElement.dataset.injected = 'ran'</script><main",
        );
        // The body goes back decoded: its length and coding go with it.
        const {
          "content-encoding": _coding,
          "content-length": _length,
          ...headers
        } = response.headers();
        await route.fulfill({ response, headers, body: html });
      });
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      await expect(page.locator("html")).not.toHaveAttribute("data-injected", "ran");
      expect(violations.join("\n")).toMatch(/inline script/i);
    });
  });

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
