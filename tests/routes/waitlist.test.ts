import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, emailOutbox, waitlistEntries } from "#db/schema";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { actorsFor } from "#tests/setup/actors";
import { bookingPayload } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";
import { WAITLIST_SETTINGS, waitlistSteps } from "#tests/setup/waitlist-steps";

/**
 * The waitlist (docs/product.md "Waitlist") against the app in process: /api/waitlist's
 * errors, limits and permissions; the booking form's "Tell me if it frees up" and the
 * dashboard's Remove (no JavaScript); a cancellation's offer and its e-mail; the claim link.
 * The claim race between two server processes is tests/integration/waitlist-race.test.ts.
 */
const server = appForThisFile(WAITLIST_SETTINGS);
const people = actorsFor(server);

type Json = Record<string, unknown>;

const {
  freshDate,
  api,
  join,
  postForm,
  joinFromForm,
  claimFromForm,
  claimThroughApi,
  entry,
  taken,
  joined,
  cancelledWhileWaiting,
  offered,
  expireOffer,
} = waitlistSteps(server, people);

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
