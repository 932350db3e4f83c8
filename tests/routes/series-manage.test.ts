import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, emailOutbox, payments } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { sessionPaymentReference } from "#app/domain/series-sessions";
import { addStudioDays, studioDateOf, studioTimeOf } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import { createPayment } from "#tests/factories/payment";
import { createSeries } from "#tests/factories/series";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { SANDBOX_CARD } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * A weekly series after booking (docs/product.md "Weekly series"), against the app in process
 * with the sandbox provider: paying it at once, My Sessions' group, cancelling one or "this and
 * all later", rescheduling one. Series come from the factory; who may, and that a refused
 * request writes nothing.
 */
const server = appForThisFile();
const { db, signUp, signUpAdmin, snapshot } = actorsFor(server);

const HOUR = 3_600_000;
let seriesCount = 0;

/** A factory series of the customer's: $400 a session (2 hours at $200), unpaid and held. */
function unpaidSeries(customer: Actor, count = 5) {
  seriesCount += 1;
  const firstDate = addStudioDays(earliestBookableDate(Date.now()), 3 + seriesCount * 2);
  return createSeries(db(), {
    user: { id: customer.id },
    firstDate,
    time: "19:00",
    count,
    hours: 2,
    hourlyRate: 200,
  });
}

/** The same, paid as the series checkout leaves it: one row per session, one charge. */
function paidSeries(customer: Actor, count = 5) {
  const made = unpaidSeries(customer, count);
  const charge = `sandbox_series_${made.series.id}`;
  for (const session of made.bookings) {
    createPayment(db(), {
      booking: session,
      transactionId: sessionPaymentReference(charge, session.id, made.bookings.length),
      paymentDetails: { brand: "visa", last4: "4242" },
    });
  }
  db()
    .update(bookings)
    .set({ status: "PENDING", holdExpiresAt: null })
    .where(
      inArray(
        bookings.id,
        made.bookings.map((b) => b.id),
      ),
    )
    .run();
  return made;
}

/** Moves a session to start `hoursAhead` from now (a series booked long ago gets this close). */
function startIn(bookingId: number, hoursAhead: number) {
  const startsAt = Math.floor((Date.now() + hoursAhead * HOUR) / HOUR) * HOUR;
  db()
    .update(bookings)
    .set({
      startsAt,
      endsAt: startsAt + 2 * HOUR,
      recordingDate: studioDateOf(startsAt),
      recordingTime: studioTimeOf(startsAt),
    })
    .where(eq(bookings.id, bookingId))
    .run();
}

function get(path: string, cookie: string | null) {
  return fetch(`${server.url}${path}`, {
    redirect: "manual",
    headers: cookie ? { Cookie: cookie } : {},
  });
}

function postForm(path: string, cookie: string | null, fields: Record<string, string>) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.url, ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}

function postJson(path: string, cookie: string | null, body: unknown) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/json",
      Origin: server.url,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

const statusesOf = (ids: number[]) =>
  db()
    .select({ id: bookings.id, status: bookings.status })
    .from(bookings)
    .where(inArray(bookings.id, ids))
    .orderBy(bookings.startsAt)
    .all()
    .map((row) => row.status);
const paymentsOf = (ids: number[]) =>
  db().select().from(payments).where(inArray(payments.bookingId, ids)).all();
const mailsOf = (ids: number[], kind: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(inArray(emailOutbox.bookingId, ids))
    .all()
    .filter((mail) => mail.kind === kind);

const CARD = { ...SANDBOX_CARD };

describe("the series checkout page", () => {
  it("shows its owner every session with its price and the total", async () => {
    const customer = await signUp();
    const { series, bookings: sessions } = unpaidSeries(customer);
    const response = await get(`/checkout/series/${series.id}`, customer.cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Weekly series · ");
    expect(html).toContain("5 sessions");
    for (const session of sessions) expect(html).toContain(`#${session.id}`);
    expect(html).toContain("$2,000");
  });

  it("is missing (404) for another customer, staff, an unknown or malformed id; a visitor is sent to sign in", async () => {
    const customer = await signUp();
    const other = await signUp();
    const admin = await signUpAdmin();
    const { series } = unpaidSeries(customer, 2);
    for (const [cookie, path] of [
      [other.cookie, `/checkout/series/${series.id}`],
      [admin.cookie, `/checkout/series/${series.id}`],
      [customer.cookie, "/checkout/series/999999999"],
      [customer.cookie, "/checkout/series/abc"],
      [customer.cookie, "/checkout/series/1e3"],
    ] as const) {
      const before = snapshot();
      expect((await get(path, cookie)).status, path).toBe(404);
      expect((await postForm(path, cookie, CARD)).status, path).toBe(404);
      expect(snapshot()).toEqual(before);
    }
    const visitor = await get(`/checkout/series/${series.id}`, null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/auth/);
  });

  it("sends one session's checkout and Pay Now to the series checkout", async () => {
    const customer = await signUp();
    const { series, bookings: sessions } = unpaidSeries(customer, 2);
    for (const path of [
      `/checkout/${sessions[0]?.id}`,
      `/dashboard/sessions/${sessions[1]?.id}/pay`,
    ]) {
      const response = await get(path, customer.cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location")).toBe(`/checkout/series/${series.id}`);
    }
  });
});

describe("paying a series with the sandbox card", () => {
  it("pays every session in one go: one payment row and receipt each, one e-mail listing them all", async () => {
    const customer = await signUp();
    const { series, bookings: sessions } = unpaidSeries(customer);
    const ids = sessions.map((s) => s.id);
    const response = await postForm(`/checkout/series/${series.id}`, customer.cookie, CARD);
    expect(response.status).toBe(302);
    const location = response.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/booking-success\?session_id=sandbox_/);

    expect(statusesOf(ids)).toEqual(Array(5).fill("PENDING"));
    const rows = paymentsOf(ids);
    expect(rows.map((row) => row.bookingId).sort()).toEqual([...ids].sort());
    expect(rows.every((row) => row.amount === 400)).toBe(true);
    // One charge: every row names it.
    const charges = new Set(rows.map((row) => row.transactionId?.split(":booking-")[0]));
    expect(charges.size).toBe(1);
    const mails = mailsOf(ids, "payment-received");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("$2,000");
    for (const id of ids) expect(mails[0]?.text).toContain(`#${id}:`);
    expect(mails[0]?.attachments).toHaveLength(5);

    const success = await get(location, customer.cookie);
    expect(await success.text()).toContain("Payment Successful!");
  });

  it("refuses to pay twice: 409 with the reason, nothing written", async () => {
    const customer = await signUp();
    const { series } = unpaidSeries(customer, 2);
    expect((await postForm(`/checkout/series/${series.id}`, customer.cookie, CARD)).status).toBe(
      302,
    );
    const before = snapshot();
    const again = await postForm(`/checkout/series/${series.id}`, customer.cookie, CARD);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Nothing in this series can be paid now");
    expect(snapshot()).toEqual(before);
  });

  it("pays once when two tabs pay at the same moment", async () => {
    const customer = await signUp();
    const { series, bookings: sessions } = unpaidSeries(customer, 3);
    const path = `/checkout/series/${series.id}`;
    const answers = await Promise.all([
      postForm(path, customer.cookie, CARD),
      postForm(path, customer.cookie, CARD),
    ]);
    const [won, lost] = answers.map((answer) => answer.status).sort();
    expect(won).toBe(302);
    // Refused before the card is charged (409), or by the payment's own transaction (402).
    expect([402, 409]).toContain(lost);
    const ids = sessions.map((s) => s.id);
    expect(paymentsOf(ids)).toHaveLength(3);
    expect(mailsOf(ids, "payment-received")).toHaveLength(1);
  });

  it("charges only the live sessions when one was cancelled", async () => {
    const customer = await signUp();
    const { series, bookings: sessions } = unpaidSeries(customer, 3);
    const [first, second, third] = sessions.map((s) => s.id);
    const cancelled = await postJson(`/api/bookings/${second}/cancel`, customer.cookie, {});
    expect(cancelled.status).toBe(200);
    const page = await (await get(`/checkout/series/${series.id}`, customer.cookie)).text();
    expect(page).toContain("$800");
    expect(page).toContain("not in this payment");

    expect((await postForm(`/checkout/series/${series.id}`, customer.cookie, CARD)).status).toBe(
      302,
    );
    expect(
      paymentsOf([first ?? 0, second ?? 0, third ?? 0])
        .map((row) => row.bookingId)
        .sort(),
    ).toEqual([first, third].sort());
  });

  it("answers a declined card 402 and a broken form 400, nothing written; a body that is not a form 415", async () => {
    const customer = await signUp();
    const { series } = unpaidSeries(customer, 2);
    const path = `/checkout/series/${series.id}`;
    for (const [fields, status] of [
      [{ ...CARD, cardNumber: "4000 0000 0000 0002" }, 402],
      [{ ...CARD, cardNumber: "4242" }, 400],
      [{ ...CARD, expirationDate: "13/99" }, 400],
      [{ cardName: "" }, 400],
    ] as const) {
      const before = snapshot();
      const response = await postForm(path, customer.cookie, fields);
      expect(response.status, JSON.stringify(fields)).toBe(status);
      expect(snapshot()).toEqual(before);
    }
    const before = snapshot();
    const json = await postJson(path, customer.cookie, CARD);
    expect(json.status).toBe(415);
    expect(snapshot()).toEqual(before);
  });
});

describe("My Sessions with a series", () => {
  it("groups the series under one heading, its pay link going to the series checkout", async () => {
    const customer = await signUp();
    const { series, bookings: sessions } = unpaidSeries(customer, 3);
    const html = await (await get("/dashboard?tab=bookings", customer.cookie)).text();
    expect(html).toMatch(/Weekly series · \w+days 7:00 PM · 3 sessions/);
    expect(html).toContain(`href="/checkout/series/${series.id}"`);
    expect(html).not.toContain(`/dashboard/sessions/${sessions[0]?.id}/pay`);
    expect(html.match(/data-slot="series-group"/g)).toHaveLength(1);
  });
});

describe("cancelling this and all later sessions", () => {
  it("cancels the chosen session and every later one, each under the 24-hour rule, with one e-mail", async () => {
    const customer = await signUp();
    const { bookings: sessions } = paidSeries(customer, 4);
    const ids = sessions.map((s) => s.id);
    const [first] = ids;
    // The first session starts in 10 hours: it keeps the 50% fee; the later ones refund in full.
    startIn(first ?? 0, 10);

    const response = await postJson(`/api/bookings/${first}/cancel`, customer.cookie, {
      scope: "following",
      expectedRefund: 200 + 3 * 400,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      cancelled: { booking: { id: number }; refund: { kind: string; refund: number } }[];
      refund: number;
    };
    expect(body.refund).toBe(1400);
    expect(body.cancelled.map((c) => [c.booking.id, c.refund.kind, c.refund.refund])).toEqual([
      [ids[0], "late", 200],
      [ids[1], "full", 400],
      [ids[2], "full", 400],
      [ids[3], "full", 400],
    ]);
    expect(statusesOf(ids)).toEqual(Array(4).fill("CANCELLED"));
    const refunds = paymentsOf(ids).filter((row) => row.amount < 0);
    expect(refunds.map((row) => row.amount).sort((a, b) => a - b)).toEqual([
      -400, -400, -400, -200,
    ]);
    expect(mailsOf(ids, "booking-cancelled")).toHaveLength(1);
    const [mail] = mailsOf(ids, "booking-cancelled");
    expect(mail?.subject).toContain("4 sessions of your series cancelled");
    for (const id of ids) expect(mail?.text).toContain(`#${id}:`);
  });

  it("quotes this and all later before confirming: each session's refund and the total", async () => {
    const customer = await signUp();
    const other = await signUp();
    const { bookings: sessions } = paidSeries(customer, 3);
    const ids = sessions.map((s) => s.id);
    startIn(ids[0] ?? 0, 10);
    const before = snapshot();
    const response = await get(`/api/bookings/${ids[0]}/cancel?scope=following`, customer.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      bookingId: ids[0],
      cancellable: true,
      message: null,
      sessions: [
        { bookingId: ids[0], refund: { kind: "late", paid: 400, fee: 200, refund: 200 } },
        { bookingId: ids[1], refund: { kind: "full", paid: 400, fee: 0, refund: 400 } },
        { bookingId: ids[2], refund: { kind: "full", paid: 400, fee: 0, refund: 400 } },
      ],
      refund: 1000,
    });
    const bad = await get(`/api/bookings/${ids[1]}/cancel?scope=all`, customer.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: 'scope must be "one" or "following"' });
    expect((await get(`/api/bookings/${ids[1]}/cancel?scope=following`, other.cookie)).status).toBe(
      404,
    );
    expect(snapshot()).toEqual(before);
  });

  it("leaves earlier sessions alone when starting from a later one", async () => {
    const customer = await signUp();
    const { bookings: sessions } = paidSeries(customer, 5);
    const ids = sessions.map((s) => s.id);
    const response = await postJson(`/api/bookings/${ids[2]}/cancel`, customer.cookie, {
      scope: "following",
    });
    expect(response.status).toBe(200);
    expect(statusesOf(ids)).toEqual(["PENDING", "PENDING", "CANCELLED", "CANCELLED", "CANCELLED"]);
  });

  it("works from the cancel dialog's form, with the choice shown", async () => {
    const customer = await signUp();
    const { bookings: sessions } = paidSeries(customer, 3);
    const ids = sessions.map((s) => s.id);
    const page = await (await get(`/dashboard/sessions/${ids[1]}/cancel`, customer.cookie)).text();
    expect(page).toContain("This and all later sessions (2)");
    const response = await postForm(`/dashboard/sessions/${ids[1]}/cancel`, customer.cookie, {
      scope: "following",
      expectedRefund: "400",
      expectedFollowingRefund: "800",
    });
    expect(response.status).toBe(302);
    expect(statusesOf(ids)).toEqual(["PENDING", "CANCELLED", "CANCELLED"]);
  });

  it("refuses without changing anything: a refund other than shown, a bad scope, a session alone, someone else's, a visitor", async () => {
    const customer = await signUp();
    const other = await signUp();
    const { bookings: sessions } = paidSeries(customer, 3);
    const [first] = sessions.map((s) => s.id);
    // A session booked alone: an order of one.
    const single = createBooking(db(), {
      user: { id: customer.id },
      date: addStudioDays(earliestBookableDate(Date.now()), 150),
      status: "PENDING_PAYMENT",
    });

    const cases: [string | null, number, unknown, number, RegExp][] = [
      [
        customer.cookie,
        first ?? 0,
        { scope: "following", expectedRefund: 5 },
        422,
        /refund is now \$1,200/,
      ],
      [customer.cookie, first ?? 0, { scope: "all" }, 400, /scope must be "one" or "following"/],
      [customer.cookie, first ?? 0, { scope: ["following"] }, 400, /scope/],
      [customer.cookie, single.id, { scope: "following" }, 422, /not part of a series/],
      [other.cookie, first ?? 0, { scope: "following" }, 404, /Booking not found/],
      [null, first ?? 0, { scope: "following" }, 401, /./],
    ];
    for (const [cookie, id, body, status, message] of cases) {
      const before = snapshot();
      const response = await postJson(`/api/bookings/${id}/cancel`, cookie, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(((await response.json()) as { message: string }).message).toMatch(message);
      expect(snapshot()).toEqual(before);
    }
    const before = snapshot();
    const form = await postForm(`/dashboard/sessions/${first}/cancel`, customer.cookie, {
      scope: "everything",
      expectedRefund: "400",
    });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain("Please choose which sessions to cancel.");
    expect(snapshot()).toEqual(before);
  });
});

describe("staff cancelling this and all later sessions", () => {
  it("offers it on a series session's admin page and cancels from there without JavaScript, refunding in full", async () => {
    const customer = await signUp();
    const admin = await signUpAdmin();
    const { bookings: sessions } = paidSeries(customer, 3);
    const ids = sessions.map((s) => s.id);

    const page = await get(`/admin/bookings/${ids[1]}`, admin.cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Cancel this and all later sessions (2)");

    const response = await postForm(`/admin/bookings/${ids[1]}`, admin.cookie, {
      intent: "cancel-following",
    });
    expect(response.status).toBe(302);
    expect(statusesOf(ids)).toEqual(["PENDING", "CANCELLED", "CANCELLED"]);
    const refunds = paymentsOf(ids).filter((row) => row.amount < 0);
    expect(refunds.map((row) => row.amount)).toEqual([-400, -400]);
    const [mail] = mailsOf(ids, "booking-cancelled");
    expect(mail?.text).toContain("the studio had to cancel them");
  });

  it("is not offered on a session booked alone, and its post is refused there, nothing changed", async () => {
    const customer = await signUp();
    const admin = await signUpAdmin();
    const alone = createBooking(db(), { user: { id: customer.id }, status: "CONFIRMED" });
    const page = await get(`/admin/bookings/${alone.id}`, admin.cookie);
    expect(await page.text()).not.toContain("Cancel this and all later sessions");
    const before = snapshot();
    const response = await postForm(`/admin/bookings/${alone.id}`, admin.cookie, {
      intent: "cancel-following",
    });
    expect(response.status).toBe(422);
    expect(snapshot()).toEqual(before);
  });

  it("is staff's only: a customer posting it to the admin page changes nothing", async () => {
    const customer = await signUp();
    const { bookings: sessions } = paidSeries(customer, 2);
    const before = snapshot();
    const response = await postForm(`/admin/bookings/${sessions[0]?.id}`, customer.cookie, {
      intent: "cancel-following",
    });
    expect([302, 403, 404]).toContain(response.status);
    expect(snapshot()).toEqual(before);
  });
});

describe("one session of a series", () => {
  it("cancels on its own under the usual rules, leaving the rest of the series", async () => {
    const customer = await signUp();
    const { bookings: sessions } = paidSeries(customer, 3);
    const ids = sessions.map((s) => s.id);
    const response = await postJson(`/api/bookings/${ids[1]}/cancel`, customer.cookie, {
      scope: "one",
    });
    expect(response.status).toBe(200);
    expect(statusesOf(ids)).toEqual(["PENDING", "CANCELLED", "PENDING"]);
    expect(
      paymentsOf([ids[1] ?? 0])
        .map((row) => row.amount)
        .sort(),
    ).toEqual([-400, 400]);
  });

  it("reschedules like a single booking and stays in its series", async () => {
    const customer = await signUp();
    const { series, bookings: sessions } = paidSeries(customer, 3);
    const moved = sessions[1];
    const date = addStudioDays(earliestBookableDate(Date.now()), 120);
    const response = await postJson(`/api/bookings/${moved?.id}/reschedule`, customer.cookie, {
      recordingDate: date,
      recordingTime: "09:00",
    });
    expect(response.status).toBe(200);
    const row = db()
      .select()
      .from(bookings)
      .where(eq(bookings.id, moved?.id ?? 0))
      .get();
    expect(row).toMatchObject({ recordingDate: date, recordingTime: "09:00", orderId: series.id });
    expect(statusesOf(sessions.map((s) => s.id))).toEqual(["PENDING", "PENDING", "PENDING"]);
  });
});

describe("the .ics of a series session", () => {
  it("offers the whole series, one event per session, to its owner only", async () => {
    const customer = await signUp();
    const other = await signUp();
    const { series, bookings: sessions } = unpaidSeries(customer, 4);
    const response = await get(`/api/bookings/${sessions[2]?.id}/ics`, customer.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="studio-series-${series.id}.ics"`,
    );
    const text = await response.text();
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(4);
    for (const session of sessions) expect(text).toContain(`UID:booking-${session.id}@`);
    expect((await get(`/api/bookings/${sessions[2]?.id}/ics`, other.cookie)).status).toBe(404);
  });
});
