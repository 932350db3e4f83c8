import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Each layout has its own error boundary: a failure under the admin layout or the dashboard
 * (here a real one, a 404 for a booking that does not exist) is shown inside that layout's
 * frame, so its navigation stays on the page; the root's boundary only takes what no layout
 * caught. Without JavaScript, as the server renders it.
 */
const server = appForThisFile();
const { signUp, signUpAdmin } = actorsFor(server);

let admin: Actor;
let customer: Actor;
beforeAll(async () => {
  admin = await signUpAdmin();
  customer = await signUp();
});

const MISSING = 999_999_999;
const ADMIN_NAV = 'aria-label="Admin sections"';
const DASHBOARD_NAV = 'aria-label="Dashboard"';

/** A GET, or with `form` the post a browser without JavaScript sends. */
async function page(path: string, cookie?: string, form?: Record<string, string>) {
  const response = await fetch(`${server.url}${path}`, {
    method: form ? "POST" : "GET",
    headers: { ...(cookie ? { Cookie: cookie } : {}), Origin: server.url },
    body: form ? new URLSearchParams(form) : undefined,
    redirect: "manual",
  });
  return { status: response.status, html: await response.text() };
}

describe("the admin layout's error boundary", () => {
  it("shows a missing booking's 404 under the admin title and tabs", async () => {
    const { status, html } = await page(`/admin/bookings/${MISSING}`, admin.cookie);
    expect(status).toBe(404);
    expect(html).toContain(ADMIN_NAV);
    expect(html).toContain("Admin Dashboard</h1>");
    // Under the layout's h1, the error's heading is an h2.
    expect(html).toMatch(/<h2[^>]*>404 Page Not Found<\/h2>/);
  });

  it("keeps the frame from anyone but an admin (a visitor's post to a page without a form)", async () => {
    const { status, html } = await page(`/admin/emails/${MISSING}`, undefined, {
      intent: "anything",
    });
    expect(status).toBe(405);
    expect(html).not.toContain(ADMIN_NAV);
    expect(html).toMatch(/<h1[^>]*>Something went wrong<\/h1>/);
  });
});

describe("the dashboard layout's error boundary", () => {
  it("shows a missing session's 404 over the customer's dashboard and its tabs", async () => {
    const { status, html } = await page(`/dashboard/sessions/${MISSING}`, customer.cookie);
    expect(status).toBe(404);
    expect(html).toContain(DASHBOARD_NAV);
    expect(html).toMatch(/<h2[^>]*>404 Page Not Found<\/h2>/);
  });
});

describe("the root's error boundary", () => {
  it("still answers what no layout caught (a page outside them)", async () => {
    const { status, html } = await page(`/checkout/${MISSING}`, customer.cookie);
    expect(status).toBe(404);
    expect(html).not.toContain(DASHBOARD_NAV);
    expect(html).toMatch(/<h1[^>]*>404 Page Not Found<\/h1>/);
  });
});
