import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { services } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { openDatabaseFile } from "#tests/factories/database";
import { createBooking } from "#tests/factories/booking";
import { createService } from "#tests/factories/catalog";
import { createSignIn, SIGN_IN_COOKIE_NAME, signInCookieValue } from "#tests/factories/sign-in";
import { createUser } from "#tests/factories/user";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * A visitor's page is rendered once and served again while its data stays the same
 * (app/web/shared-pages.server.ts). What a visitor sees must still change the moment the
 * data does, and a page of one person must never reach another.
 */
const server = appForThisFile();
/** A second connection, as staff or another process would write. */
const writer = () => openDatabaseFile(server.dbPath);

async function page(path = "/", headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers });
  expect(response.status).toBe(200);
  const csp = response.headers.get("Content-Security-Policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? "";
  return { html: await response.text(), nonce };
}

/** The page with its nonce blanked: what every visitor shares. */
const shared = ({ html, nonce }: { html: string; nonce: string }) =>
  html.replaceAll(nonce, "NONCE");

function startTimeOption(html: string, time: string) {
  return new RegExp(`<option value="${time}"[^>]*>.*?</option>`).exec(html)?.[0] ?? "";
}

async function signedIn(firstName: string) {
  const db = writer();
  const user = await createUser(db, { firstName });
  const signIn = createSignIn(db, { userId: user.id });
  const value = signInCookieValue(signIn.id);
  return { Cookie: `${SIGN_IN_COOKIE_NAME}=${value}` };
}

describe("a visitor's landing page, rendered once", () => {
  it("is the same page for each visitor, each with a nonce of its own on every script", async () => {
    const first = await page();
    const second = await page();
    expect(first.nonce).not.toBe(second.nonce);
    expect(second.html).not.toContain(first.nonce);
    const scripts = second.html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${second.nonce}"`);
    expect(shared(second)).toBe(shared(first));
  });

  it("shows a new service and a new price at once", async () => {
    await page();
    const service = createService(writer(), { name: "Shared Page Mastering", price: 77 });
    const added = (await page()).html;
    expect(added).toContain("Shared Page Mastering");
    expect(added).toContain("$77");
    writer().update(services).set({ price: 88 }).where(eq(services.id, service.id)).run();
    const repriced = (await page()).html;
    expect(repriced).toContain("$88");
    expect(repriced).not.toContain("$77");
  });

  it("marks a start time booked as soon as a booking takes it", async () => {
    const date = earliestBookableDate(Date.now());
    const before = (await page()).html;
    // The latest start the page offers now (late in the studio's evening, the earliest day's
    // late starts are still inside 48 hours).
    const free = [...before.matchAll(/<option value="(\d\d:\d\d)">/g)].map((m) => m[1]);
    const time = free.at(-1);
    if (!time) throw new Error("The landing page offers no free start time");
    expect(startTimeOption(before, time)).not.toContain("disabled");
    const owner = await createUser(writer());
    createBooking(writer(), { user: owner, date, time, hours: 2 });
    const after = (await page()).html;
    expect(startTimeOption(after, time)).toContain("disabled");
    expect(startTimeOption(after, time)).toContain("(booked)");
  });

  it("never serves a signed-in customer's page to a visitor, nor the visitor's to a customer", async () => {
    await page();
    const customer = await signedIn("Zebedee");
    const theirs = (await page("/", customer)).html;
    expect(theirs).toContain('value="Zebedee"');
    expect(theirs).toContain('id="dashboard"');
    const visitor = (await page()).html;
    expect(visitor).not.toContain("Zebedee");
    expect(visitor).not.toContain('id="dashboard"');
    expect((await page("/", await signedIn("Yolanda"))).html).toContain('value="Yolanda"');
  });

  it("keeps a flashed toast to the visitor it was meant for", async () => {
    await page();
    const loggedOut = await fetch(`${server.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.url, ...(await signedIn("Xavier")) },
    });
    const flash = loggedOut.headers.get("Set-Cookie")?.match(/toast-session=[^;]+/)?.[0];
    expect(flash).toBeDefined();
    const withToast = (await page("/", { Cookie: flash as string })).html;
    const plain = (await page()).html;
    const toastText = /Logged out[^<]*/.exec(withToast)?.[0];
    expect(toastText).toBeDefined();
    expect(plain).not.toContain(toastText as string);
  });
});
