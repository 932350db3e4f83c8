import { and, count, eq, ne } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, payments } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays, studioDateOf, studioTimeOf } from "#app/domain/studio-time";
import { actorsFor } from "#tests/setup/actors";
import { bookingPayload, cardBody } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Cancelling with refunds and rescheduling through the JSON API and the dashboard's forms,
 * against the app in process with the sandbox provider: the amounts, the errors, who may,
 * and that a refused request writes nothing.
 */
const server = appForThisFile();
const { db, signUp, snapshot } = actorsFor(server);

const HOUR = 3_600_000;
const SLOT_TAKEN =
  "The selected time slot conflicts with an existing booking. Please select a different time.";

let dayOffset = 0;
/** A free studio day well past the 48-hour notice, new for every call. */
function freshDay(): string {
  dayOffset += 1;
  return addStudioDays(earliestBookableDate(Date.now()), 3 + dayOffset);
}

function api(path: string, cookie: string | null, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: "manual",
  });
}

async function book(cookie: string, date = freshDay(), time = "10:00") {
  const response = await api("/api/bookings", cookie, { body: bookingPayload(date, time, 2) });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; totalCost: number };
}

async function bookAndPay(cookie: string, date?: string, time?: string) {
  const booking = await book(cookie, date, time);
  const paid = await api(`/api/bookings/${booking.id}/payments/direct`, cookie, {
    body: cardBody(booking.totalCost),
  });
  expect(paid.status).toBe(200);
  return booking;
}

/**
 * A paid session starting `hoursAhead` from now, written straight into the database: the
 * 48-hour notice keeps the API from making one this close, but a session booked long ago
 * gets this close by waiting.
 */
async function sessionSoon(customer: { id: number; cookie: string }, hoursAhead: number) {
  const booking = await bookAndPay(customer.cookie);
  const startsAt = Math.floor((Date.now() + hoursAhead * HOUR) / HOUR) * HOUR;
  db()
    .update(bookings)
    .set({
      startsAt,
      endsAt: startsAt + 2 * HOUR,
      recordingDate: studioDateOf(startsAt),
      recordingTime: studioTimeOf(startsAt),
    })
    .where(eq(bookings.id, booking.id))
    .run();
  return booking;
}

function netPaid(bookingId: number): number {
  const rows = db()
    .select({ amount: payments.amount })
    .from(payments)
    .where(eq(payments.bookingId, bookingId))
    .all();
  return rows.reduce((total, row) => total + row.amount, 0);
}

function statusOf(bookingId: number): string | undefined {
  return db()
    .select({ status: bookings.status })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .get()?.status;
}

describe("cancelling through the API", () => {
  it("quotes a full refund more than 24 hours ahead, then refunds it", async () => {
    const customer = await signUp();
    const booking = await bookAndPay(customer.cookie);

    const quote = await api(`/api/bookings/${booking.id}/cancel`, customer.cookie);
    expect(quote.status).toBe(200);
    expect(await quote.json()).toEqual({
      bookingId: booking.id,
      cancellable: true,
      message: null,
      refund: { kind: "full", paid: 400, fee: 0, refund: 400 },
    });

    const cancelled = await api(`/api/bookings/${booking.id}/cancel`, customer.cookie, {
      body: { expectedRefund: 400 },
    });
    expect(cancelled.status).toBe(200);
    const body = (await cancelled.json()) as { booking: { status: string }; refund: unknown };
    expect(body.booking.status).toBe("CANCELLED");
    expect(body.refund).toMatchObject({ kind: "full", refund: 400 });
    expect(netPaid(booking.id)).toBe(0);

    const again = await api(`/api/bookings/${booking.id}/cancel`, customer.cookie, { body: {} });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({ message: "This booking is already cancelled." });
  });

  it("keeps half inside 24 hours, and refuses a refund other than the one it would make", async () => {
    const customer = await signUp();
    const booking = await sessionSoon(customer, 20);
    const quote = (await (
      await api(`/api/bookings/${booking.id}/cancel`, customer.cookie)
    ).json()) as { refund: { refund: number } };
    expect(quote.refund).toEqual({ kind: "late", paid: 400, fee: 200, refund: 200 });

    const before = snapshot();
    const stale = await api(`/api/bookings/${booking.id}/cancel`, customer.cookie, {
      body: { expectedRefund: 400 },
    });
    expect(stale.status).toBe(422);
    expect(await stale.json()).toMatchObject({ refund: { refund: 200 } });
    expect(snapshot()).toEqual(before);

    const cancelled = await api(`/api/bookings/${booking.id}/cancel`, customer.cookie, {
      body: { expectedRefund: 200 },
    });
    expect(cancelled.status).toBe(200);
    expect(netPaid(booking.id)).toBe(200);
  });

  it("lets nobody else cancel, and refuses bad bodies without writing", async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const booking = await bookAndPay(owner.cookie);
    const before = snapshot();
    const path = `/api/bookings/${booking.id}/cancel`;
    expect((await api(path, stranger.cookie)).status).toBe(404);
    expect((await api(path, stranger.cookie, { body: {} })).status).toBe(404);
    expect((await api(path, null, { body: {} })).status).toBe(401);
    const bad = await api(path, owner.cookie, { body: { expectedRefund: "all of it" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      message: "expectedRefund must be a whole number of dollars",
    });
    expect((await api("/api/bookings/abc/cancel", owner.cookie, { body: {} })).status).toBe(404);
    expect(snapshot()).toEqual(before);
    expect(statusOf(booking.id)).toBe("PENDING");
  });

  it("releases the slot: another customer can book it at once", async () => {
    const first = await signUp();
    const second = await signUp();
    const date = freshDay();
    const booking = await bookAndPay(first.cookie, date, "14:00");
    const taken = await api("/api/bookings", second.cookie, {
      body: bookingPayload(date, "14:00", 2),
    });
    expect(taken.status).toBe(422);
    await api(`/api/bookings/${booking.id}/cancel`, first.cookie, { body: {} });
    await book(second.cookie, date, "14:00");
  });
});

describe("rescheduling through the API", () => {
  it("moves a paid session to a free slot and keeps its price and payment", async () => {
    const customer = await signUp();
    const booking = await bookAndPay(customer.cookie);
    const date = freshDay();
    const moved = await api(`/api/bookings/${booking.id}/reschedule`, customer.cookie, {
      body: { recordingDate: date, recordingTime: "18:00" },
    });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({
      id: booking.id,
      recordingDate: date,
      recordingTime: "18:00",
      totalCost: booking.totalCost,
      status: "PENDING",
    });
    expect(netPaid(booking.id)).toBe(booking.totalCost);
  });

  it("refuses a taken slot, an unpaid booking, one inside 24 hours, and others' bookings", async () => {
    const customer = await signUp();
    const stranger = await signUp();
    const date = freshDay();
    await bookAndPay(stranger.cookie, date, "12:00");
    const booking = await bookAndPay(customer.cookie);
    const unpaid = await book(customer.cookie);
    const soon = await sessionSoon(customer, 20);
    const before = snapshot();

    const taken = await api(`/api/bookings/${booking.id}/reschedule`, customer.cookie, {
      body: { recordingDate: date, recordingTime: "11:00" },
    });
    expect(taken.status).toBe(422);
    expect(await taken.json()).toEqual({ message: SLOT_TAKEN });

    const slot = { recordingDate: freshDay(), recordingTime: "09:00" };
    const notPaid = await api(`/api/bookings/${unpaid.id}/reschedule`, customer.cookie, {
      body: slot,
    });
    expect(notPaid.status).toBe(422);
    const late = await api(`/api/bookings/${soon.id}/reschedule`, customer.cookie, { body: slot });
    expect(late.status).toBe(422);
    expect(((await late.json()) as { message: string }).message).toMatch(/24 hours/);
    const foreign = await api(`/api/bookings/${booking.id}/reschedule`, stranger.cookie, {
      body: slot,
    });
    expect(foreign.status).toBe(404);
    const early = await api(`/api/bookings/${booking.id}/reschedule`, customer.cookie, {
      body: { recordingDate: studioDateOf(Date.now()), recordingTime: "23:00" },
    });
    expect(early.status).toBe(400);
    expect(await early.json()).toMatchObject({
      message: "Booking must be at least 48 hours in advance",
    });
    const garbage = await api(`/api/bookings/${booking.id}/reschedule`, customer.cookie, {
      body: { recordingDate: "soon", recordingTime: "25:00" },
    });
    expect(garbage.status).toBe(400);
    expect(snapshot()).toEqual(before);
  });
});

describe("racing for one slot", () => {
  it("lets exactly one of several moves and new bookings aimed at the same slot through", async () => {
    const movers = await Promise.all([signUp(), signUp(), signUp()]);
    const bookers = await Promise.all([signUp(), signUp()]);
    const sessions = await Promise.all(movers.map((mover) => bookAndPay(mover.cookie)));
    const target = { recordingDate: freshDay(), recordingTime: "16:00" };

    const answers = await Promise.all([
      ...sessions.map((session, index) =>
        api(`/api/bookings/${session.id}/reschedule`, movers[index]?.cookie ?? null, {
          body: target,
        }),
      ),
      ...bookers.map((booker) =>
        api("/api/bookings", booker.cookie, {
          body: bookingPayload(target.recordingDate, target.recordingTime, 2),
        }),
      ),
    ]);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((code) => code === 200 || code === 201)).toHaveLength(1);
    expect(statuses.filter((code) => code === 422)).toHaveLength(answers.length - 1);
    const live = db()
      .select({ total: count() })
      .from(bookings)
      .where(
        and(
          eq(bookings.recordingDate, target.recordingDate),
          eq(bookings.recordingTime, target.recordingTime),
          ne(bookings.status, "CANCELLED"),
        ),
      )
      .get();
    expect(live?.total).toBe(1);
  });
});

describe("the dashboard's cancel form", () => {
  it("cancels with the refund shown and says so", async () => {
    const customer = await signUp();
    const booking = await bookAndPay(customer.cookie);
    const page = await api(`/dashboard/sessions/${booking.id}/cancel`, customer.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Cancel and refund $400");
    expect(html).toContain('name="expectedRefund" value="400"');

    const posted = await fetch(`${server.url}/dashboard/sessions/${booking.id}/cancel`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: customer.cookie,
      },
      body: "expectedRefund=400",
      redirect: "manual",
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/dashboard?tab=bookings");
    expect(statusOf(booking.id)).toBe("CANCELLED");
    expect(netPaid(booking.id)).toBe(0);
  });

  it("shows the session's own start as its current time, not as a move", async () => {
    const customer = await signUp();
    const date = freshDay();
    const booking = await bookAndPay(customer.cookie, date, "13:00");
    const page = await api(
      `/dashboard/sessions/${booking.id}/reschedule?recordingDate=${date}`,
      customer.cookie,
    );
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<option value="13:00" disabled="">1:00 PM \(your current time\)/);
    expect(html).toMatch(/<option value="12:00">12:00 PM/);
  });
});
