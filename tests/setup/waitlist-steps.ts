import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { waitlistEntries } from "#db/schema";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import type { Actor, actorsFor } from "#tests/setup/actors";
import { bookingFormFields, bookingPayload } from "#tests/setup/payloads";

type Json = Record<string, unknown>;

/** The waitlist suites' settings: a small waitlist cap, a year's horizon, room to book. */
export const WAITLIST_SETTINGS = {
  MAX_WAITLIST: "3",
  BOOKING_HORIZON_DAYS: "365",
  BOOKING_RATE_LIMIT: "1000",
  MAX_UNPAID_HOLDS: "50",
};

/**
 * The steps of the waitlist's tests (docs/product.md "Waitlist") against `server`, whose
 * database `people` writes: joining, taking and cancelling a range, claiming an offer from the
 * form or the API, reading an entry. The route suite (tests/routes/waitlist.test.ts) and the
 * claim race between two server processes (tests/integration/waitlist-race.test.ts) share them.
 */
export function waitlistSteps(server: { url: string }, people: ReturnType<typeof actorsFor>) {
  let daysAhead = 5;
  function freshDate(): string {
    daysAhead += 1;
    return addStudioDays(studioDateOf(Date.now()), daysAhead);
  }

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
  function taken(
    date: string,
    owner: Actor,
    status: "CONFIRMED" | "PENDING_PAYMENT" = "CONFIRMED",
  ) {
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

  return {
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
    threeCustomers,
    cancelledWhileWaiting,
    offered,
    expireOffer,
  };
}
