import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, signIn, test, toast } from "#tests/e2e/fixtures";

/**
 * Calendar feeds (docs/product.md "Calendar feeds"), with JavaScript on and off: the private link
 * is shown with a Subscribe link, a calendar app (no cookie) fetches it, and New link replaces
 * it, the old one answering 404 at once.
 */

const FEED_PATH = /^\/calendar\/[A-Za-z0-9_-]{43}\.ics$/;

/** The link in the section's read-only field, and its Subscribe link. */
async function shownLink(page: Page, section: string) {
  const region = page.getByRole("region", { name: section });
  const field = region.getByLabel(/Calendar link/);
  await expect(field).toHaveAttribute("readonly", "");
  const url = new URL(await field.inputValue());
  expect(url.pathname).toMatch(FEED_PATH);
  await expect(
    region.getByRole("link", { name: "Subscribe in your calendar app" }),
  ).toHaveAttribute("href", `webcal://${url.host}${url.pathname}`);
  return url.pathname;
}

/** A calendar app's fetch: its own request context, no cookies. */
async function fetchFeed(request: APIRequestContext, path: string) {
  return request.get(path, { headers: { Cookie: "" } });
}

async function newLinkReplaces(page: Page, request: APIRequestContext, section: string) {
  const old = await shownLink(page, section);
  const first = await fetchFeed(request, old);
  expect(first.status()).toBe(200);
  expect(first.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  expect(await first.text()).toContain("BEGIN:VCALENDAR");

  await page
    .getByRole("region", { name: section })
    .getByRole("button", { name: "New link" })
    .click();
  await expect(toast(page)).toContainText("The old link has stopped working.");
  await expect.poll(async () => shownLink(page, section).catch(() => old)).not.toBe(old);
  const fresh = await shownLink(page, section);
  expect((await fetchFeed(request, old)).status()).toBe(404);
  expect((await fetchFeed(request, fresh)).status()).toBe(200);
}

test.describe("calendar feeds", () => {
  test("a customer subscribes from Profile Settings and makes a new link", async ({
    page,
    request,
    customer,
  }) => {
    await signIn(page, customer);
    await page.goto("/dashboard?tab=profile");
    const section = "Your sessions in your calendar";
    await expect(page.getByRole("heading", { name: section })).toBeVisible();
    await expectNoAxeViolations(page);
    await newLinkReplaces(page, request, section);
  });

  test("staff subscribe to the studio feed from the Sessions tab", async ({
    page,
    request,
    admin,
  }) => {
    await signIn(page, admin);
    await page.goto("/admin/sessions");
    const section = "The studio in your calendar";
    await expect(page.getByRole("heading", { name: section })).toBeVisible();
    await expectNoAxeViolations(page);
    await newLinkReplaces(page, request, section);
  });
});
