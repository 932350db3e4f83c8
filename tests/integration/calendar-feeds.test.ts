import { existsSync, readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { users } from "#db/schema";
import { createBooking } from "#tests/factories/booking";
import { storedFeedToken } from "#tests/factories/calendar-feed";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { PASSWORD } from "#tests/setup/payloads";
import { viaFlyProxy } from "#tests/setup/proxy";
import { cookiesFrom } from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * Calendar feeds (docs/product.md "Calendar feeds"): GET /calendar/{token}.ics against the
 * production build. The token is the only credential; a customer's feed holds only their own
 * sessions, a studio feed every live one; a New link ends the old token at once; ETag and
 * Last-Modified answer 304; CALENDAR_FEED_LIMIT (10 here) per token and per client address.
 * Behind the proxy (TRUST_PROXY) so each test is a client address of its own.
 */
const LIMIT = 10;
const server = serverForThisFile({ TRUST_PROXY: "true", CALENDAR_FEED_LIMIT: String(LIMIT) });
const people = actorsFor(server);
const { newClient, viaProxy } = viaFlyProxy(server, "198.51.100");

const TOKEN_IN_PAGE = /\/calendar\/([A-Za-z0-9_-]{43})\.ics/;

/** The dashboard's Profile Settings shows the feed link (making the token on first view). */
async function tokenShownTo(actor: Actor, path = "/dashboard?tab=profile"): Promise<string> {
  const response = await fetch(`${server.url}${path}`, {
    headers: viaProxy(newClient(), { Cookie: actor.cookie }),
  });
  expect(response.status).toBe(200);
  const html = await response.text();
  const token = html.match(TOKEN_IN_PAGE)?.[1];
  if (!token) throw new Error("No calendar link on the page");
  expect(html).toMatch(new RegExp(`webcal://[^/"]+/calendar/${token}\\.ics`));
  return token;
}

/** A calendar app's fetch: no cookie, its own client address unless given. */
function fetchFeed(path: string, headers: Record<string, string> = {}, client = newClient()) {
  return fetch(`${server.url}${path}`, { headers: viaProxy(client, headers) });
}

function events(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents("vevent").map((event) => new ICAL.Event(event));
}

function newYorkWallTime(date: Date): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone: "America/New_York",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(date);
}

describe("a customer's feed", () => {
  it("lists the customer's sessions at their UTC instants, cancelled ones marked", async () => {
    const owner = await people.signUp();
    const token = await tokenShownTo(owner);
    expect(storedFeedToken(people.db(), owner.id)).toBe(token);
    const live = createBooking(people.db(), { user: owner, date: "2027-02-10", time: "10:00" });
    const cancelled = createBooking(people.db(), {
      user: owner,
      date: "2027-02-11",
      time: "12:00",
      status: "CANCELLED",
      cancelledAt: Date.now(),
    });
    const response = await fetchFeed(`/calendar/${token}.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("private, no-cache");
    const found = events(await response.text());
    const [first, second] = found;
    if (!first || !second) throw new Error("Two events expected");
    expect(found.map((event) => event.uid)).toEqual([
      expect.stringMatching(new RegExp(`^feed-booking-${live.id}@`)),
      expect.stringMatching(new RegExp(`^feed-booking-${cancelled.id}@`)),
    ]);
    expect(first.startDate.zone?.tzid).toBe("UTC");
    expect(first.startDate.toJSDate().getTime()).toBe(live.startsAt);
    expect(first.endDate.toJSDate().getTime()).toBe(live.endsAt);
    expect(first.component.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(second.component.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(first.summary).toBe("Recording session at ATL Creator Studio");
  });

  it("shows 19:00 in New York after the spring and the autumn clock changes", async () => {
    const owner = await people.signUp();
    const token = await tokenShownTo(owner);
    // 2027: clocks go forward on 14 March and back on 7 November.
    const spring = createBooking(people.db(), { user: owner, date: "2027-03-18", time: "19:00" });
    const autumn = createBooking(people.db(), { user: owner, date: "2027-11-10", time: "19:00" });
    const found = events(await (await fetchFeed(`/calendar/${token}.ics`)).text());
    const starts = found.map((event) => event.startDate.toJSDate());
    expect(starts.map((date) => date.toISOString())).toEqual([
      "2027-03-18T23:00:00.000Z",
      "2027-11-11T00:00:00.000Z",
    ]);
    expect(starts.map(newYorkWallTime)).toEqual(["03/18/2027, 19:00", "11/10/2027, 19:00"]);
    expect(starts.map((date) => date.getTime())).toEqual([spring.startsAt, autumn.startsAt]);
  });

  it("never holds another customer's sessions", async () => {
    const alice = await people.signUp();
    const bob = await people.signUp();
    const aliceBooking = createBooking(people.db(), {
      user: { id: alice.id, firstName: "Alice", phoneNumber: "404-555-0111" },
      date: "2027-04-01",
    });
    const bobBooking = createBooking(people.db(), { user: bob, date: "2027-04-02" });
    const bobToken = await tokenShownTo(bob);
    const aliceToken = await tokenShownTo(alice);
    expect(bobToken).not.toBe(aliceToken);
    const text = await (await fetchFeed(`/calendar/${bobToken}.ics`)).text();
    const uids = events(text).map((event) => event.uid);
    expect(uids).toEqual([expect.stringMatching(new RegExp(`^feed-booking-${bobBooking.id}@`))]);
    expect(text).not.toContain(`#${aliceBooking.id}`);
    expect(text).not.toContain("Alice");
    expect(text).not.toContain("404-555-0111");
  });

  it("keeps the token across views and ends it at once when a new link is made", async () => {
    const owner = await people.signUp();
    const first = await tokenShownTo(owner);
    expect(await tokenShownTo(owner)).toBe(first);
    const post = await fetch(`${server.url}/dashboard?tab=profile`, {
      method: "POST",
      headers: viaProxy(newClient(), { Cookie: owner.cookie }),
      body: new URLSearchParams({ intent: "new-calendar-link" }),
      redirect: "manual",
    });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toBe("/dashboard?tab=profile");
    const second = await tokenShownTo(owner);
    expect(second).not.toBe(first);
    expect((await fetchFeed(`/calendar/${first}.ics`)).status).toBe(404);
    expect((await fetchFeed(`/calendar/${second}.ics`)).status).toBe(200);
  });

  it("answers 404 to an unknown token, a name without .ics and a malformed token", async () => {
    const owner = await people.signUp();
    const token = await tokenShownTo(owner);
    const unknown = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const path of [
      `/calendar/${unknown}.ics`,
      `/calendar/${token}`,
      `/calendar/${token}.ical`,
      `/calendar/${token}x.ics`,
      "/calendar/.ics",
      `/calendar/${encodeURIComponent("' OR 1=1 --")}.ics`,
    ]) {
      const response = await fetchFeed(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe(
        "This calendar link does not exist or has been replaced.",
      );
    }
  });

  it("answers 404 to a feed's .data URL, which is no page's data", async () => {
    const owner = await people.signUp();
    const token = await tokenShownTo(owner);
    for (const path of [`/calendar/${token}.ics.data`, "/calendar/1.data?_routes=0"]) {
      expect((await fetchFeed(path)).status, path).toBe(404);
    }
  });
});

describe("polling", () => {
  it("answers 304 to a matching If-None-Match or If-Modified-Since, 200 once it changes", async () => {
    const owner = await people.signUp();
    const token = await tokenShownTo(owner);
    const path = `/calendar/${token}.ics`;
    createBooking(people.db(), { user: owner, date: "2027-05-01" });
    const first = await fetchFeed(path);
    const body = await first.text();
    const etag = first.headers.get("ETag");
    const lastModified = first.headers.get("Last-Modified");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+\.[a-z0-9]+"$/);
    expect(lastModified).toBe(new Date(Date.parse(lastModified ?? "")).toUTCString());

    const again = await fetchFeed(path);
    expect(again.headers.get("ETag")).toBe(etag);
    expect(await again.text()).toBe(body);

    const byTag = await fetchFeed(path, { "If-None-Match": etag ?? "" });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get("ETag")).toBe(etag);
    expect(await byTag.text()).toBe("");
    const byDate = await fetchFeed(path, { "If-Modified-Since": lastModified ?? "" });
    expect(byDate.status).toBe(304);
    // If-None-Match decides when both are sent.
    const staleTag = await fetchFeed(path, {
      "If-None-Match": '"other"',
      "If-Modified-Since": lastModified ?? "",
    });
    expect(staleTag.status).toBe(200);

    const added = createBooking(people.db(), { user: owner, date: "2027-05-02" });
    const changed = await fetchFeed(path, { "If-None-Match": etag ?? "" });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    const uids = events(await changed.text()).map((event) => event.uid);
    expect(uids).toContainEqual(expect.stringMatching(new RegExp(`^feed-booking-${added.id}@`)));
  });
});

describe("CALENDAR_FEED_LIMIT", () => {
  it("limits one token from many addresses", async () => {
    const owner = await people.signUp();
    const token = await tokenShownTo(owner);
    for (let n = 0; n < LIMIT; n += 1) {
      expect((await fetchFeed(`/calendar/${token}.ics`)).status).toBe(200);
    }
    const refused = await fetchFeed(`/calendar/${token}.ics`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.text()).toMatch(
      /^Too many calendar requests\. Please try again in \d+ minutes?\.$/,
    );
  });

  it("limits one address across tokens, unknown ones included", async () => {
    const client = newClient();
    const owner = await people.signUp();
    const token = await tokenShownTo(owner);
    for (let n = 0; n < LIMIT - 1; n += 1) {
      expect((await fetchFeed(`/calendar/${"A".repeat(43)}.ics`, {}, client)).status).toBe(404);
    }
    expect((await fetchFeed(`/calendar/${token}.ics`, {}, client)).status).toBe(200);
    expect((await fetchFeed(`/calendar/${token}.ics`, {}, client)).status).toBe(429);
    // The token itself still has budget left from another address.
    expect((await fetchFeed(`/calendar/${token}.ics`)).status).toBe(200);
  });
});

describe("the studio feed", () => {
  it("lists every live session with a booking number and first name only, on the Sessions tab", async () => {
    const admin = await people.signUpAdmin();
    const customer = await people.signUp();
    const client = { id: customer.id, firstName: "Grace", lastName: "Hopper" };
    const live = createBooking(people.db(), {
      user: { ...client, phoneNumber: "404-555-0123" },
      date: "2027-06-01",
    });
    const cancelled = createBooking(people.db(), {
      user: client,
      date: "2027-06-02",
      status: "CANCELLED",
    });
    const lapsed = createBooking(people.db(), {
      user: client,
      date: "2027-06-03",
      status: "PENDING_PAYMENT",
      holdExpiresAt: Date.now() - 60_000,
    });
    const token = await tokenShownTo(admin, "/admin/sessions");
    expect(storedFeedToken(people.db(), admin.id, "STUDIO")).toBe(token);
    const text = await (await fetchFeed(`/calendar/${token}.ics`)).text();
    const found = events(text);
    const uids = found.map((event) => event.uid);
    expect(uids).toContainEqual(expect.stringMatching(new RegExp(`^feed-booking-${live.id}@`)));
    for (const gone of [cancelled, lapsed]) {
      expect(uids).not.toContainEqual(
        expect.stringMatching(new RegExp(`^feed-booking-${gone.id}@`)),
      );
    }
    const event = found.find((one) => one.uid.startsWith(`feed-booking-${live.id}@`));
    expect(event?.summary).toBe(`Grace (#${live.id})`);
    expect(event?.description).toContain(`Booking #${live.id}`);
    expect(event?.description).toContain("Client: Grace");
    // No surname, phone or e-mail of any client in the feed.
    expect(text).not.toContain("Hopper");
    expect(text).not.toContain("404-555-0123");
    expect(text).not.toMatch(/[\w.+-]+@example\.com/);
  });

  it("is apart from the admin's own customer feed, and stops when they are no longer staff", async () => {
    const admin = await people.signUpAdmin();
    const studio = await tokenShownTo(admin, "/admin/sessions");
    const own = await tokenShownTo(admin);
    expect(own).not.toBe(studio);
    const mine = createBooking(people.db(), { user: admin, date: "2027-07-01" });
    const other = await people.signUp();
    const theirs = createBooking(people.db(), { user: other, date: "2027-07-02" });
    const ownUids = events(await (await fetchFeed(`/calendar/${own}.ics`)).text()).map(
      (event) => event.uid,
    );
    expect(ownUids).toEqual([expect.stringMatching(new RegExp(`^feed-booking-${mine.id}@`))]);
    expect(ownUids).not.toContainEqual(expect.stringContaining(`-${theirs.id}@`));

    people.db().update(users).set({ isAdmin: false }).where(eq(users.id, admin.id)).run();
    expect((await fetchFeed(`/calendar/${studio}.ics`)).status).toBe(404);
    expect((await fetchFeed(`/calendar/${own}.ics`)).status).toBe(200);
  });

  it("gets a new link from the Sessions tab's form, ending the old one", async () => {
    const admin = await people.signUpAdmin();
    const first = await tokenShownTo(admin, "/admin/sessions");
    const post = await fetch(`${server.url}/admin/sessions`, {
      method: "POST",
      headers: viaProxy(newClient(), { Cookie: admin.cookie }),
      body: new URLSearchParams({ intent: "new-studio-calendar-link" }),
      redirect: "manual",
    });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toBe("/admin/sessions");
    const second = await tokenShownTo(admin, "/admin/sessions");
    expect(second).not.toBe(first);
    expect((await fetchFeed(`/calendar/${first}.ics`)).status).toBe(404);
    expect((await fetchFeed(`/calendar/${second}.ics`)).status).toBe(200);
  });
});

describe("links end with the account's other keys", () => {
  /** A form post to the dashboard's Profile Settings, as a page without JavaScript sends it. */
  async function postProfile(actor: Actor, fields: Record<string, string>) {
    const response = await fetch(`${server.url}/dashboard?tab=profile`, {
      method: "POST",
      headers: viaProxy(newClient(), { Cookie: actor.cookie }),
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    const renewed = cookiesFrom(response)
      .split("; ")
      .find((cookie) => cookie.startsWith("__session="));
    return { ...actor, cookie: renewed ?? actor.cookie };
  }

  it("a password change replaces the customer's and the studio link", async () => {
    const admin = await people.signUpAdmin();
    const own = await tokenShownTo(admin);
    const studio = await tokenShownTo(admin, "/admin/sessions");
    const after = await postProfile(admin, {
      intent: "password",
      currentPassword: PASSWORD,
      newPassword: "brand-new-secret",
      confirmNewPassword: "brand-new-secret",
    });
    for (const old of [own, studio]) {
      expect((await fetchFeed(`/calendar/${old}.ics`)).status).toBe(404);
    }
    const newOwn = await tokenShownTo(after);
    const newStudio = await tokenShownTo(after, "/admin/sessions");
    expect([newOwn, newStudio]).not.toContain(own);
    expect([newOwn, newStudio]).not.toContain(studio);
    expect((await fetchFeed(`/calendar/${newOwn}.ics`)).status).toBe(200);
    expect((await fetchFeed(`/calendar/${newStudio}.ics`)).status).toBe(200);
  });

  it("Sign out of all devices replaces the link", async () => {
    const owner = await people.signUp();
    const before = await tokenShownTo(owner);
    await postProfile(owner, { intent: "sign-out-other-devices" });
    expect((await fetchFeed(`/calendar/${before}.ics`)).status).toBe(404);
    const now = await tokenShownTo(owner);
    expect(now).not.toBe(before);
    expect((await fetchFeed(`/calendar/${now}.ics`)).status).toBe(200);
  });

  it("the database file alone holds no working link", async () => {
    const owner = await people.signUp();
    const token = await tokenShownTo(owner);
    const file = Buffer.concat(
      ["", "-wal"]
        .filter((suffix) => existsSync(server.dbPath + suffix))
        .map((suffix) => readFileSync(server.dbPath + suffix)),
    );
    expect(file.includes(Buffer.from(token))).toBe(false);
  });
});
