import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, emailOutbox } from "#db/schema";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import { openDatabaseFile } from "#tests/factories/database";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { bookingFormFields, bookingPayload } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * Holding the calendar through POST /api/bookings (docs/product.md "Availability and holds"):
 * at most MAX_UNPAID_HOLDS unpaid bookings and MAX_UNPAID_SESSIONS unpaid sessions at once, none
 * beyond BOOKING_HORIZON_DAYS.
 */
const server = appForThisFile({
  MAX_UNPAID_HOLDS: "2",
  MAX_UNPAID_SESSIONS: "12",
  BOOKING_HORIZON_DAYS: "365",
});

const CAP_MESSAGE =
  "You already have 2 unpaid bookings waiting for payment. Please pay for or cancel one of them before booking another session.";

async function signUp() {
  const response = await fetch(`${server.url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(registrationPayload({})),
  });
  expect(response.status).toBe(201);
  const user = (await response.json()) as { id: number };
  return { id: user.id, cookie: cookiesFrom(response) };
}

function book(cookie: string, date: string, time = "10:00") {
  return fetch(`${server.url}/api/bookings`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: JSON.stringify(bookingPayload(date, time)),
  });
}

let daysAhead = 4;
function freshDate(): string {
  daysAhead += 1;
  return addStudioDays(studioDateOf(Date.now()), daysAhead);
}

function writes() {
  return {
    bookings: server.count("bookings"),
    emails: server.db.select().from(emailOutbox).all().length,
  };
}

it("refuses a third unpaid booking with 422, links to the open ones, and writes nothing", async () => {
  const customer = await signUp();
  const held: number[] = [];
  for (let n = 0; n < 2; n += 1) {
    const response = await book(customer.cookie, freshDate());
    expect(response.status).toBe(201);
    held.push(((await response.json()) as { id: number }).id);
  }

  const before = writes();
  const response = await book(customer.cookie, freshDate());
  expect(response.status).toBe(422);
  const body = (await response.json()) as {
    message: string;
    openBookings: { id: number; payUrl: string; cancelUrl: string }[];
  };
  expect(body.message).toBe(CAP_MESSAGE);
  expect(body.openBookings.map((open) => open.id)).toEqual(held);
  expect(body.openBookings[0]).toMatchObject({
    payUrl: `/dashboard/sessions/${held[0]}/pay`,
    cancelUrl: `/dashboard/sessions/${held[0]}/cancel`,
  });
  expect(writes()).toEqual(before);

  // Once a hold runs out, there is room for one more.
  const writer = openDatabaseFile(server.dbPath);
  writer
    .update(bookings)
    .set({ holdExpiresAt: Date.now() - 1000 })
    .where(eq(bookings.id, held[0] ?? 0))
    .run();
  writer.$client.close();
  expect((await book(customer.cookie, freshDate())).status).toBe(201);
});

it("lets only one of two simultaneous requests take the last place", async () => {
  const customer = await signUp();
  expect((await book(customer.cookie, freshDate())).status).toBe(201);
  const statuses = await Promise.all([
    book(customer.cookie, freshDate()),
    book(customer.cookie, freshDate()),
  ]).then((responses) => responses.map((response) => response.status).sort());
  expect(statuses).toEqual([201, 422]);
  const rows = server.db.select().from(bookings).where(eq(bookings.userId, customer.id)).all();
  expect(rows).toHaveLength(2);
});

it("books exactly at the horizon and refuses the day after with 400, writing nothing", async () => {
  const customer = await signUp();
  const today = studioDateOf(Date.now());
  const last = addStudioDays(today, 365);
  expect((await book(customer.cookie, last, "03:00")).status).toBe(201);

  const before = writes();
  const response = await book(customer.cookie, addStudioDays(last, 1), "03:00");
  expect(response.status).toBe(400);
  expect(((await response.json()) as { message: string }).message).toBe(
    `Sessions can be booked up to ${last}. Please choose an earlier date.`,
  );
  expect(writes()).toEqual(before);
});

it("refuses to move a session beyond the horizon with 422, leaving it where it was", async () => {
  const customer = await signUp();
  const writer = openDatabaseFile(server.dbPath);
  const session = createBooking(writer, {
    user: { id: customer.id },
    date: freshDate(),
    time: "05:00",
    status: "CONFIRMED",
  });
  writer.$client.close();
  const last = addStudioDays(studioDateOf(Date.now()), 365);
  const response = await fetch(`${server.url}/api/bookings/${session.id}/reschedule`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: customer.cookie },
    body: JSON.stringify({ recordingDate: addStudioDays(last, 1), recordingTime: "05:00" }),
  });
  expect(response.status).toBe(422);
  expect(((await response.json()) as { message: string }).message).toBe(
    `Sessions can be booked up to ${last}. Please choose an earlier date.`,
  );
  const row = server.db.select().from(bookings).where(eq(bookings.id, session.id)).get();
  expect(row?.recordingDate).toBe(session.recordingDate);
});

describe("MAX_UNPAID_SESSIONS (12)", () => {
  const FULL_SERIES = { every: "week", count: 12 };
  const SERIES_MESSAGE =
    "You already have 12 unpaid sessions waiting for payment, and this series would add 12: at most 12 unpaid sessions may be held at once. Please pay for or cancel some of them before booking more.";
  const SINGLE_MESSAGE =
    "You already have 12 unpaid sessions waiting for payment: at most 12 unpaid sessions may be held at once. Please pay for or cancel one of them before booking another session.";

  function bookSeries(cookie: string, date: string, time: string) {
    return fetch(`${server.url}/api/bookings`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify(bookingPayload(date, time, 2, { repeat: FULL_SERIES })),
    });
  }

  it("refuses a second full series with 422, the count and the open series; writes nothing", async () => {
    const customer = await signUp();
    const first = await bookSeries(customer.cookie, freshDate(), "19:00");
    expect(first.status).toBe(201);
    const series = (await first.json()) as {
      seriesId: number;
      bookings: { id: number; recordingDate: string }[];
    };
    expect(series.bookings).toHaveLength(12);

    const before = writes();
    const response = await bookSeries(customer.cookie, freshDate(), "21:00");
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      message: SERIES_MESSAGE,
      title: "Unpaid Bookings",
      openBookings: [
        {
          id: series.bookings[0]?.id,
          recordingDate: series.bookings[0]?.recordingDate,
          recordingTime: "19:00",
          payUrl: `/checkout/series/${series.seriesId}`,
          cancelUrl: `/dashboard/sessions/${series.bookings[0]?.id}/cancel`,
        },
      ],
    });
    expect(writes()).toEqual(before);

    // One hold of the two MAX_UNPAID_HOLDS allows, but no session left: a single is refused.
    const single = await book(customer.cookie, freshDate(), "08:00");
    expect(single.status).toBe(422);
    expect(((await single.json()) as { message: string }).message).toBe(SINGLE_MESSAGE);
    expect(writes()).toEqual(before);
  });

  it("shows the same refusal on the booking form (no JavaScript), writing nothing", async () => {
    const customer = await signUp();
    expect((await bookSeries(customer.cookie, freshDate(), "19:00")).status).toBe(201);
    const before = writes();
    const response = await fetch(`${server.url}/?index`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: customer.cookie },
      body: new URLSearchParams({
        intent: "book",
        ...bookingFormFields(freshDate(), "21:00"),
        "repeat.every": "week",
        "repeat.count": "12",
      }),
    });
    expect(response.status).toBe(422);
    const page = await response.text();
    expect(page).toContain(SERIES_MESSAGE);
    expect(page).toContain("Unpaid Bookings");
    expect(writes()).toEqual(before);
  });

  it("lets only one of two simultaneous full series take the twelve places", async () => {
    const customer = await signUp();
    const statuses = await Promise.all([
      bookSeries(customer.cookie, freshDate(), "19:00"),
      bookSeries(customer.cookie, freshDate(), "21:00"),
    ]).then((responses) => responses.map((response) => response.status).sort());
    expect(statuses).toEqual([201, 422]);
    const rows = server.db.select().from(bookings).where(eq(bookings.userId, customer.id)).all();
    expect(rows).toHaveLength(12);
  });
});
