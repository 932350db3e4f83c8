import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, emailOutbox, waitlistEntries } from "#db/schema";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { bookingFormFields, bookingPayload } from "#tests/setup/payloads";
import {
  collectOutput,
  freePort,
  INTEGRATION_SESSION_SECRET,
  spawnServer,
  waitUntilHealthy,
} from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * The waitlist (docs/product.md "Waitlist") against the production build: /api/waitlist's
 * errors, limits and permissions; the booking form's "Tell me if it frees up" and the
 * dashboard's Remove (no JavaScript); a cancellation's offer and its e-mail; the claim link;
 * and the claim race.
 */
const server = serverForThisFile({
  MAX_WAITLIST: "3",
  BOOKING_HORIZON_DAYS: "365",
  BOOKING_RATE_LIMIT: "1000",
  MAX_UNPAID_HOLDS: "50",
});
const people = actorsFor(server);

let daysAhead = 5;
function freshDate(): string {
  daysAhead += 1;
  return addStudioDays(studioDateOf(Date.now()), daysAhead);
}

type Json = Record<string, unknown>;

function api(actor: Actor | null, method: string, path: string, body?: Json) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(body ? { "Content-Type": "application/json" } : {}),
      ...(actor ? { Cookie: actor.cookie } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

const join = (actor: Actor | null, date: string, time = "10:00", hours = 2) =>
  api(actor, "POST", "/api/waitlist", {
    recordingDate: date,
    recordingTime: time,
    hoursNeeded: hours,
  });

/**
 * A page form posted without JavaScript, by `actor` or (null) a visitor, to `origin`: this
 * file's server unless told.
 */
function postForm(
  actor: Actor | null,
  path: string,
  fields: Record<string, string>,
  origin = server.url,
) {
  return fetch(`${origin}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: actor ? { Cookie: actor.cookie } : {},
    body: new URLSearchParams(fields),
  });
}

/** The booking form's "Tell me if it frees up" for `date` 10:00-12:00. */
const joinFromForm = (actor: Actor | null, date: string) =>
  postForm(actor, "/?index", {
    ...bookingFormFields(date, ""),
    intent: "join-waitlist",
    waitlistTime: "10:00",
  });

/** The booking form booking `date` 10:00-12:00 with the offer of waitlist entry `entryId`. */
const claimFromForm = (actor: Actor, date: string, entryId: number, origin = server.url) =>
  postForm(
    actor,
    "/?index",
    { ...bookingFormFields(date, "10:00"), intent: "book", waitlistEntryId: String(entryId) },
    origin,
  );

/** POST /api/bookings for `date` at 10:00 with `waitlistEntryId` (and anything in `more`). */
const claimThroughApi = (
  actor: Actor,
  date: string,
  waitlistEntryId: unknown,
  hours = 2,
  more: Json = {},
) =>
  api(
    actor,
    "POST",
    "/api/bookings",
    bookingPayload(date, "10:00", hours, { waitlistEntryId, ...more }),
  );

function entry(id: number) {
  return people.db().select().from(waitlistEntries).where(eq(waitlistEntries.id, id)).get();
}

/** Someone's session on `date` 10:00-12:00: the range the tests wait for. */
function taken(date: string, owner: Actor, status: "CONFIRMED" | "PENDING_PAYMENT" = "CONFIRMED") {
  return createBooking(people.db(), { user: owner, date, time: "10:00", status, totalCost: 400 });
}

async function joined(actor: Actor, date: string): Promise<number> {
  const response = await join(actor, date);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** The owner cancels their unpaid booking through the API: nothing to refund. */
async function cancel(owner: Actor, bookingId: number) {
  const response = await api(owner, "POST", `/api/bookings/${bookingId}/cancel`, {
    expectedRefund: 0,
  });
  expect(response.status).toBe(200);
}

const threeCustomers = () => Promise.all([people.signUp(), people.signUp(), people.signUp()]);

/**
 * `owner`'s unpaid 10:00-12:00 on a fresh date, which each of `waiters` joins the waitlist for
 * in turn; then the owner cancels it, which offers it to the first. The entries' ids in order.
 */
async function cancelledWhileWaiting<const W extends readonly Actor[]>(owner: Actor, waiters: W) {
  const date = freshDate();
  const booking = taken(date, owner, "PENDING_PAYMENT");
  const ids: number[] = [];
  for (const waiter of waiters) ids.push(await joined(waiter, date));
  await cancel(owner, booking.id);
  return { date, ids: ids as { -readonly [K in keyof W]: number } };
}

/** A waiter with a live offer for `date` 10:00-12:00 (checked), and another customer. */
async function offered() {
  const [owner, waiter, other] = await threeCustomers();
  const {
    date,
    ids: [id],
  } = await cancelledWhileWaiting(owner, [waiter]);
  expect(entry(id)?.status).toBe("OFFERED");
  return { waiter, other, date, id };
}

/** The offer of entry `id` ran out a second ago. */
function expireOffer(id: number) {
  people
    .db()
    .update(waitlistEntries)
    .set({ offerExpiresAt: Date.now() - 1000 })
    .where(eq(waitlistEntries.id, id))
    .run();
}

describe("POST /api/waitlist", () => {
  it("asks a visitor to sign in", async () => {
    const response = await join(null, freshDate());
    expect(response.status).toBe(401);
  });

  it("waits for a taken range and lists it", async () => {
    const [owner, waiter] = await Promise.all([people.signUp(), people.signUp()]);
    const date = freshDate();
    taken(date, owner);
    const response = await join(waiter, date);
    expect(response.status).toBe(201);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({
      recordingDate: date,
      recordingTime: "10:00",
      hoursNeeded: 2,
      status: "WAITING",
      claimUrl: null,
    });
    const list = (await (await api(waiter, "GET", "/api/waitlist")).json()) as Json[];
    expect(list.map((row) => row.id)).toEqual([body.id]);
    // Another customer's list does not show it.
    const others = (await (await api(owner, "GET", "/api/waitlist")).json()) as Json[];
    expect(others).toEqual([]);
  });

  it("refuses a free range, a duplicate and past MAX_WAITLIST with 422, writing nothing", async () => {
    const [owner, waiter] = await Promise.all([people.signUp(), people.signUp()]);
    const refused = async (response: Response, status: number, message: string) => {
      expect(response.status).toBe(status);
      expect(((await response.json()) as Json).message).toBe(message);
    };
    let before = people.snapshot();
    await refused(
      await join(waiter, freshDate()),
      422,
      "That time is free: you can book it now instead of joining the waitlist.",
    );
    expect(people.snapshot()).toEqual(before);

    const dates = [freshDate(), freshDate(), freshDate(), freshDate()];
    for (const date of dates) taken(date, owner);
    await joined(waiter, dates[0] ?? "");
    before = people.snapshot();
    await refused(
      await join(waiter, dates[0] ?? ""),
      422,
      "You are already on the waitlist for this time.",
    );
    expect(people.snapshot()).toEqual(before);
    await joined(waiter, dates[1] ?? "");
    await joined(waiter, dates[2] ?? "");
    before = people.snapshot();
    await refused(
      await join(waiter, dates[3] ?? ""),
      422,
      "You already have 3 open waitlist entries. Please remove one before joining another.",
    );
    expect(people.snapshot()).toEqual(before);
  });

  it("refuses a range the caller's own live booking takes with 422, API and form; writes nothing", async () => {
    const owner = await people.signUp();
    const OWN = "You already have a session booked at this time.";
    const unpaid = freshDate();
    taken(unpaid, owner, "PENDING_PAYMENT");
    const confirmed = freshDate();
    taken(confirmed, owner);
    const before = people.snapshot();
    // Their unpaid booking with a live hold, their confirmed one, and a range overlapping it.
    for (const [date, time] of [
      [unpaid, "10:00"],
      [confirmed, "10:00"],
      [unpaid, "11:00"],
    ] as const) {
      const response = await join(owner, date, time);
      expect(response.status).toBe(422);
      expect(((await response.json()) as Json).message).toBe(OWN);
    }
    const form = await joinFromForm(owner, confirmed);
    expect(form.status).toBe(422);
    expect(await form.text()).toContain(OWN);
    expect(people.snapshot()).toEqual(before);
  });

  it("refuses a start inside 48 hours or past the horizon with 400, and bad bodies", async () => {
    const waiter = await people.signUp();
    const before = people.snapshot();
    const soon = await join(waiter, addStudioDays(studioDateOf(Date.now()), 1));
    expect(soon.status).toBe(400);
    const far = await join(waiter, addStudioDays(studioDateOf(Date.now()), 400));
    expect(far.status).toBe(400);
    expect(((await far.json()) as Json).message).toMatch(/^Sessions can be booked up to/);
    const bad = await api(waiter, "POST", "/api/waitlist", {
      recordingDate: "2027-02-30",
      recordingTime: "10:30",
      hoursNeeded: 99,
    });
    expect(bad.status).toBe(400);
    expect(people.snapshot()).toEqual(before);
  });
});

describe("DELETE /api/waitlist/{id}", () => {
  it("removes the caller's own open entry; another's is 404, unchanged", async () => {
    const [owner, waiter] = await Promise.all([people.signUp(), people.signUp()]);
    const date = freshDate();
    taken(date, owner);
    const id = await joined(waiter, date);
    const before = people.snapshot();
    const foreign = await api(owner, "DELETE", `/api/waitlist/${id}`);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as Json).message).toBe("This waitlist entry does not exist.");
    expect((await api(null, "DELETE", `/api/waitlist/${id}`)).status).toBe(401);
    expect((await api(waiter, "DELETE", "/api/waitlist/abc")).status).toBe(404);
    expect(people.snapshot()).toEqual(before);
    const own = await api(waiter, "DELETE", `/api/waitlist/${id}`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as Json).status).toBe("REMOVED");
    expect((await api(waiter, "DELETE", `/api/waitlist/${id}`)).status).toBe(404);
  });
});

describe("the booking form and the dashboard, without JavaScript", () => {
  it("joins from the form, lists the entry on the dashboard and removes it there", async () => {
    const [owner, waiter] = await Promise.all([people.signUp(), people.signUp()]);
    const date = freshDate();
    taken(date, owner);
    const page = await fetch(`${server.url}/?index`, {
      method: "POST",
      headers: { Cookie: waiter.cookie },
      body: new URLSearchParams({ intent: "check", recordingDate: date, hoursNeeded: "2" }),
    });
    expect(await page.text()).toContain("Tell me if it frees up");

    const posted = await joinFromForm(waiter, date);
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/dashboard?tab=bookings#waitlist");
    const [row] = people
      .db()
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.userId, waiter.id))
      .all();
    expect(row).toMatchObject({ recordingDate: date, recordingTime: "10:00", status: "WAITING" });

    const dashboard = await fetch(`${server.url}/dashboard?tab=bookings`, {
      headers: { Cookie: waiter.cookie },
    });
    const html = await dashboard.text();
    expect(html).toContain('id="waitlist-title"');
    expect(html).toContain("Waiting: we e-mail you if it frees up.");

    // Another customer's Remove changes nothing.
    const before = people.snapshot();
    const foreign = await postForm(owner, "/dashboard?tab=bookings", {
      intent: "remove-waitlist",
      id: String(row?.id),
    });
    expect(foreign.status).toBe(404);
    expect(people.snapshot()).toEqual(before);
    const removed = await postForm(waiter, "/dashboard?tab=bookings", {
      intent: "remove-waitlist",
      id: String(row?.id),
    });
    expect(removed.status).toBe(302);
    expect(entry(row?.id ?? 0)?.status).toBe("REMOVED");
  });

  it("sends a visitor to sign in from either form, writing nothing", async () => {
    const before = people.snapshot();
    const joining = await joinFromForm(null, freshDate());
    expect(joining.status).toBe(302);
    expect(joining.headers.get("Location")).toBe("/auth#main");
    const removing = await postForm(null, "/dashboard?tab=bookings", {
      intent: "remove-waitlist",
      id: "1",
    });
    expect(removing.status).toBe(302);
    expect(removing.headers.get("Location")).toMatch(/^\/auth/);
    expect(people.snapshot()).toEqual(before);
  });

  it("refuses to join for a free time with our message, writing nothing", async () => {
    const waiter = await people.signUp();
    const before = people.snapshot();
    const posted = await joinFromForm(waiter, freshDate());
    expect(posted.status).toBe(422);
    expect(await posted.text()).toContain(
      "That time is free: you can book it now instead of joining the waitlist.",
    );
    expect(people.snapshot()).toEqual(before);
  });
});

describe("offers and claims", () => {
  it("a cancellation offers the range at once; the link opens the form on it; claiming books it", async () => {
    const { waiter, other, date, id } = await offered();
    const mail = people
      .db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "waitlist-offer"))
      .all()
      .find((row) => row.text.includes(`/?claim=${id}#booking-form`));
    expect(mail?.subject).toBe("The studio time you waited for is free: it is held for you");

    // Busy for everyone else.
    const refused = await api(other, "POST", "/api/bookings", bookingPayload(date, "10:00"));
    expect(refused.status).toBe(422);

    // The link: a visitor signs in first; another customer is told it is not theirs.
    const visitor = await fetch(`${server.url}/?claim=${id}`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/auth#main");
    const foreign = await fetch(`${server.url}/?claim=${id}`, {
      headers: { Cookie: other.cookie },
    });
    expect(await foreign.text()).toContain("This waitlist offer is no longer yours to claim");
    const own = await fetch(`${server.url}/?claim=${id}`, { headers: { Cookie: waiter.cookie } });
    const html = await own.text();
    expect(html).toContain("The time you waited for is held for you");
    expect(html).toContain(`name="waitlistEntryId" value="${id}"`);
    // Signed in from the link's sign-in page, the customer lands on / : the form opens on it.
    const landing = await fetch(`${server.url}/`, { headers: { Cookie: waiter.cookie } });
    expect(await landing.text()).toContain(`name="waitlistEntryId" value="${id}"`);

    const claimed = await claimFromForm(waiter, date, id);
    expect(claimed.status).toBe(302);
    expect(claimed.headers.get("Location")).toMatch(/^\/checkout\/\d+#main$/);
    const made = entry(id);
    expect(made?.status).toBe("CLAIMED");
    const row = people
      .db()
      .select()
      .from(bookings)
      .where(eq(bookings.id, made?.bookingId ?? 0))
      .get();
    expect(row).toMatchObject({ userId: waiter.id, recordingDate: date, recordingTime: "10:00" });
  });

  it("the claim race: of two waiters, exactly one books; the other gets our message", async () => {
    const [owner, first, second] = await threeCustomers();
    const {
      date,
      ids: [firstId, secondId],
    } = await cancelledWhileWaiting(owner, [first, second]);
    expect(entry(firstId)?.status).toBe("OFFERED");
    expect(entry(secondId)?.status).toBe("WAITING");
    // A second server process on the same database file, as production may run: the second
    // waiter's requests go there, so they really run while the first's is in flight, each
    // process's transaction waiting on SQLite's write lock rather than on one event loop.
    const port = await freePort();
    const other = spawnServer(port, server.dbPath, {
      SESSION_SECRET: INTEGRATION_SESSION_SECRET,
      BOOKING_RATE_LIMIT: "1000",
      MAX_UNPAID_HOLDS: "50",
      MAX_UNPAID_SESSIONS: "1000",
    });
    const otherUrl = `http://127.0.0.1:${port}`;
    await waitUntilHealthy(other, otherUrl, collectOutput(other));
    const [secondClaim, firstClaim, secondApi] = await Promise.all([
      claimFromForm(second, date, secondId, otherUrl),
      claimFromForm(first, date, firstId, server.url),
      fetch(`${otherUrl}/api/bookings`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: second.cookie },
        body: JSON.stringify(bookingPayload(date, "10:00")),
      }),
    ]).finally(async () => {
      const exited = new Promise((resolve) => other.once("exit", resolve));
      other.kill("SIGTERM");
      await exited;
    });
    expect(firstClaim.status).toBe(302);
    expect(secondClaim.status).toBe(400);
    expect(await secondClaim.text()).toContain(
      "This waitlist offer is no longer yours to claim: it ran out, was removed or belongs to someone else.",
    );
    expect(secondApi.status).toBe(422);
    const live = people
      .db()
      .select()
      .from(bookings)
      .where(and(eq(bookings.recordingDate, date)))
      .all()
      .filter((row) => row.status !== "CANCELLED");
    expect(live.map((row) => row.userId)).toEqual([first.id]);
    expect(entry(firstId)?.status).toBe("CLAIMED");
    expect(entry(secondId)?.status).toBe("WAITING");
  });

  it("an offer that ran out cannot be claimed: our message, nothing written", async () => {
    const [owner, waiter] = await Promise.all([people.signUp(), people.signUp()]);
    const {
      date,
      ids: [id],
    } = await cancelledWhileWaiting(owner, [waiter]);
    expireOffer(id);
    const page = await fetch(`${server.url}/?claim=${id}`, { headers: { Cookie: waiter.cookie } });
    expect(await page.text()).toContain("This waitlist offer is no longer yours to claim");
    const before = people.snapshot();
    const claimed = await claimFromForm(waiter, date, id);
    expect(claimed.status).toBe(400);
    expect(people.snapshot()).toEqual(before);
  });
});

describe("POST /api/bookings claiming an offer (waitlistEntryId)", () => {
  const claimGone =
    "This waitlist offer is no longer yours to claim: it ran out, was removed or belongs to someone else.";

  async function refused(response: Response, message: string) {
    expect(response.status).toBe(400);
    expect(((await response.json()) as Json).message).toBe(message);
  }

  it("books the offer's range for its customer and marks the entry CLAIMED", async () => {
    const { waiter, date, id } = await offered();
    const response = await claimThroughApi(waiter, date, id);
    expect(response.status).toBe(201);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({ recordingDate: date, recordingTime: "10:00" });
    expect(entry(id)).toMatchObject({ status: "CLAIMED", bookingId: body.id });
  });

  it("refuses someone else's offer, an offer that ran out, another range and repeat: nothing written", async () => {
    const { waiter, other, date, id } = await offered();
    let before = people.snapshot();
    await refused(await claimThroughApi(other, date, id), claimGone);
    expect(people.snapshot()).toEqual(before);

    await refused(
      await claimThroughApi(waiter, date, id, 2, { repeat: { every: "week", count: 3 } }),
      "A waitlist offer is claimed by one booking: leave out repeat, or book the series without the offer.",
    );
    expect(people.snapshot()).toEqual(before);

    await refused(
      await claimThroughApi(waiter, date, id, 3),
      "A waitlist offer is for its own date, start time and hours: book those, or book another time without the offer.",
    );
    expect(people.snapshot()).toEqual(before);

    const bad = await claimThroughApi(waiter, date, "many");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(
      "waitlistEntryId must be the number of your waitlist entry.",
    );
    expect(people.snapshot()).toEqual(before);

    expireOffer(id);
    before = people.snapshot();
    await refused(await claimThroughApi(waiter, date, id), claimGone);
    expect(people.snapshot()).toEqual(before);
  });
});
