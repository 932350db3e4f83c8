import { and, count, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingServices, bookings, coupons, emailOutbox, payments, users } from "#db/schema";
import { earliestBookableDate } from "#app/domain/availability";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { createCoupon, createService } from "#tests/factories/catalog";
import { openDatabaseFile, type TestDatabase } from "#tests/factories/database";
import { cookiesFrom, registrationPayload } from "#tests/setup/server";
import { bookingPayload, cardBody } from "#tests/setup/payloads";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * The booking JSON API (docs/product.md "Validation", "The JSON API", "Messages",
 * "Availability and holds", "Price", "Coupons", "Payment") against the app in process: races,
 * prices, holds, coupons and the sandbox card payment.
 */
const server = appForThisFile();

const SLOT_TAKEN =
  "The selected time slot conflicts with an existing booking. Please select a different time.";
const USED_UP = "This coupon is invalid or has expired.";
const ADVANCE_NOTICE = "Booking must be at least 48 hours in advance";
const HOLD_EXPIRED_REASON = "Payment not received in time";
const GOOD_CARD = "4242 4242 4242 4242";
const GOOD_CARD_DIGITS = "4242424242424242";
const DECLINED_CARD = "4000000000000002";
const LUHN_FAILING_CARD = "4242424242424241";
const CVV = "987";

// The test's own connection for seeding (the server's `query` is read-only).
let writer: TestDatabase;
beforeAll(() => {
  writer = openDatabaseFile(server.dbPath);
});
afterAll(() => {
  writer?.$client.close();
});

type Json = Record<string, unknown>;
type SignedIn = { id: number; cookie: string };

function api(
  path: string,
  options: { method?: string; body?: unknown; cookie?: string; headers?: Json } = {},
) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.cookie) headers.Cookie = options.cookie;
  Object.assign(headers, options.headers);
  return fetch(`${server.url}${path}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function signUp(overrides: Json = {}): Promise<SignedIn> {
  const response = await api("/api/register", { body: registrationPayload(overrides) });
  expect(response.status).toBe(201);
  const user = (await response.json()) as { id: number };
  return { id: user.id, cookie: cookiesFrom(response) };
}

async function signUpAdmin(): Promise<SignedIn> {
  const admin = await signUp();
  writer.update(users).set({ isAdmin: true }).where(eq(users.id, admin.id)).run();
  return admin;
}

// Each test books on days of its own, far enough ahead for the 48-hour rule.
let daysAhead = 4;
function freshDate(): string {
  daysAhead += 1;
  return addStudioDays(studioDateOf(Date.now()), daysAhead);
}

async function book(signedIn: SignedIn, payload: Json) {
  const response = await api("/api/bookings", { body: payload, cookie: signedIn.cookie });
  return { response, body: (await response.json()) as Json };
}

/** An active add-on service; its id. */
function insertService(name: string, price: number, isActive = true): number {
  return createService(writer, { name, price, isActive }).id;
}

function couponUses(id: number): { currentUses: number; maxUses: number } {
  const row = server.db
    .select({ currentUses: coupons.currentUses, maxUses: coupons.maxUses })
    .from(coupons)
    .where(eq(coupons.id, id))
    .get();
  if (!row) throw new Error(`No coupon ${id}`);
  return row;
}

function bookingRow(id: unknown) {
  return server.db
    .select()
    .from(bookings)
    .where(eq(bookings.id, Number(id)))
    .get();
}

function paymentRows(bookingId: unknown) {
  return server.db
    .select()
    .from(payments)
    .where(eq(payments.bookingId, Number(bookingId)))
    .all();
}

const paymentCount = () => server.db.select({ n: count() }).from(payments).get()?.n ?? 0;

/** Bookings on a studio day; with `live`, only those still holding their slot. */
function bookingsOn(date: string, options: { live?: boolean } = {}) {
  const onDate = eq(bookings.recordingDate, date);
  return (
    server.db
      .select({ n: count() })
      .from(bookings)
      .where(options.live ? and(onDate, ne(bookings.status, "CANCELLED")) : onDate)
      .get()?.n ?? 0
  );
}

function pay(signedIn: SignedIn, bookingId: unknown, body: Json) {
  return api(`/api/bookings/${bookingId}/payments/direct`, { body, cookie: signedIn.cookie });
}

function statusOf(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}

describe("POST /api/bookings under concurrency", () => {
  it("creates exactly one of 20 simultaneous overlapping bookings", async () => {
    const date = freshDate();
    const customers = await Promise.all([1, 2, 3, 4, 5].map(() => signUp()));
    // Every one of these ranges contains 12:00-13:00, so any two of them overlap.
    const slots: [string, number][] = [
      ["08:00", 5],
      ["09:00", 4],
      ["10:00", 3],
      ["11:00", 2],
      ["12:00", 2],
    ];
    const before = server.count("bookings");
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const customer = customers[i % customers.length] as SignedIn;
        const [time, hours] = slots[i % slots.length] as [string, number];
        return api("/api/bookings", {
          body: bookingPayload(date, time, hours, { userId: customer.id }),
          cookie: customer.cookie,
        });
      }),
    );
    expect(statusOf(responses)).toEqual({ 201: 1, 422: 19 });
    for (const response of responses.filter((r) => r.status === 422)) {
      expect(await response.json()).toEqual({
        message: SLOT_TAKEN,
        title: "Time Slot Unavailable",
      });
    }
    expect(server.count("bookings")).toBe(before + 1);
    expect(bookingsOn(date, { live: true })).toBe(1);
  });

  it("lets only one of 10 simultaneous bookings take a coupon's last use", async () => {
    const date = freshDate();
    const coupon = createCoupon(writer, {
      type: "PERCENTAGE",
      value: 10,
      maxUses: 4,
      currentUses: 3,
    });
    const customers = await Promise.all([1, 2].map(() => signUp()));
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const customer = customers[i % customers.length] as SignedIn;
        // 00:00, 02:00, ... 18:00: ten two-hour sessions that do not touch each other.
        const time = `${String(2 * i).padStart(2, "0")}:00`;
        return api("/api/bookings", {
          body: bookingPayload(date, time, 2, { couponCode: coupon.code.toLowerCase() }),
          cookie: customer.cookie,
        });
      }),
    );
    expect(statusOf(responses)).toEqual({ 201: 1, 400: 9 });
    for (const response of responses) {
      const body = (await response.json()) as Json;
      if (response.status === 201) {
        expect(body).toMatchObject({
          couponCode: coupon.code,
          originalCost: 400,
          discountAmount: 40,
          totalCost: 360,
        });
      } else {
        expect(body).toEqual({ message: USED_UP });
      }
    }
    expect(couponUses(coupon.id)).toEqual({ currentUses: 4, maxUses: 4 });
    expect(bookingsOn(date)).toBe(1);
  });
});

describe("POST /api/bookings prices on the server", () => {
  it("ignores a tampered totalCost, originalCost, discountAmount and status", async () => {
    const customer = await signUp();
    const serviceId = insertService("Video recording", 75);
    const { response, body } = await book(
      customer,
      bookingPayload(freshDate(), "10:00", 2, {
        selectedServices: [serviceId],
        servicesCost: 1,
        totalCost: 1,
        originalCost: 1,
        discountAmount: 999,
        hourlyRate: 1,
        status: "CONFIRMED",
        holdExpiresAt: null,
      }),
    );
    expect(response.status).toBe(201);
    expect(body).toMatchObject({
      hourlyRate: 200,
      originalCost: 475,
      discountAmount: 0,
      totalCost: 475,
      status: "PENDING_PAYMENT",
      stakeholder: "no",
      userId: customer.id,
      checkoutUrl: `/checkout/${body.id}`,
    });
    expect(typeof body.holdExpiresAt).toBe("string");
    expect(bookingRow(body.id)).toMatchObject({
      totalCost: 475,
      originalCost: 475,
      discountAmount: 0,
      status: "PENDING_PAYMENT",
    });
    const lines = server.db
      .select({
        serviceId: bookingServices.serviceId,
        priceAtBooking: bookingServices.priceAtBooking,
      })
      .from(bookingServices)
      .where(eq(bookingServices.bookingId, Number(body.id)))
      .all();
    expect(lines).toEqual([{ serviceId, priceAtBooking: 75 }]);
  });

  it("charges $150/h when stakeholder is 'YES' in any case", async () => {
    const customer = await signUp();
    const { response, body } = await book(
      customer,
      bookingPayload(freshDate(), "09:00", 3, { stakeholder: "YES", totalCost: 0 }),
    );
    expect(response.status).toBe(201);
    expect(body).toMatchObject({
      stakeholder: "yes",
      hourlyRate: 150,
      originalCost: 450,
      totalCost: 450,
    });
  });

  it("applies a coupon at the server's figures, whatever discount the client claims", async () => {
    const customer = await signUp();
    const coupon = createCoupon(writer, { type: "PERCENTAGE", value: 25 });
    const { response, body } = await book(
      customer,
      bookingPayload(freshDate(), "14:00", 2, {
        couponCode: coupon.code,
        discountAmount: 400,
        originalCost: 400,
        totalCost: 0,
      }),
    );
    expect(response.status).toBe(201);
    expect(body).toMatchObject({ originalCost: 400, discountAmount: 100, totalCost: 300 });
    expect(body.status).toBe("PENDING_PAYMENT");
  });

  it("refuses a service that is not offered and writes nothing", async () => {
    const customer = await signUp();
    const inactive = insertService("Retired add-on", 50, false);
    const before = server.count("bookings");
    const { response, body } = await book(
      customer,
      bookingPayload(freshDate(), "10:00", 2, { selectedServices: [inactive] }),
    );
    expect(response.status).toBe(400);
    expect(typeof body.message).toBe("string");
    expect(server.count("bookings")).toBe(before);
  });
});

describe("free bookings and PATCH /api/bookings/{id}/status", () => {
  it("creates a 100% coupon booking CONFIRMED at $0; only its owner may confirm it", async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const coupon = createCoupon(writer, { type: "PERCENTAGE", value: 100 });
    const { response, body } = await book(
      owner,
      bookingPayload(freshDate(), "11:00", 2, { couponCode: coupon.code }),
    );
    expect(response.status).toBe(201);
    expect(body).toMatchObject({
      status: "CONFIRMED",
      totalCost: 0,
      originalCost: 400,
      discountAmount: 400,
      checkoutUrl: null,
      holdExpiresAt: null,
    });
    const path = `/api/bookings/${body.id}/status`;
    const patch = (signedIn: SignedIn | null, status: unknown) =>
      api(path, { method: "PATCH", body: { status }, cookie: signedIn?.cookie });

    const confirmed = await patch(owner, "CONFIRMED");
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ id: body.id, status: "CONFIRMED" });

    const foreign = await patch(stranger, "CONFIRMED");
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ message: "Booking not found" });

    for (const status of ["PENDING", "CANCELLED", "COMPLETED"]) {
      const refused = await patch(owner, status);
      expect(refused.status).toBe(403);
      expect(typeof ((await refused.json()) as Json).message).toBe("string");
    }
    expect((await patch(null, "CONFIRMED")).status).toBe(401);
    expect((await patch(owner, "NOT_A_STATUS")).status).toBe(400);
    expect(bookingRow(body.id)?.status).toBe("CONFIRMED");

    const admin = await signUpAdmin();
    const byAdmin = await patch(admin, "CANCELLED");
    expect(byAdmin.status).toBe(403);
    expect(await byAdmin.json()).toEqual({
      message: "Use the admin area to change booking statuses",
    });
    expect(bookingRow(body.id)?.status).toBe("CONFIRMED");
  });

  it("refuses to confirm an unpaid or paid booking", async () => {
    const owner = await signUp();
    const { body } = await book(owner, bookingPayload(freshDate(), "10:00", 2));
    const patch = () =>
      api(`/api/bookings/${body.id}/status`, {
        method: "PATCH",
        body: { status: "CONFIRMED" },
        cookie: owner.cookie,
      });
    expect((await patch()).status).toBe(403);
    expect(bookingRow(body.id)?.status).toBe("PENDING_PAYMENT");

    const paid = await pay(owner, body.id, cardBody(body.totalCost));
    expect(paid.status).toBe(200);
    const refused = await patch();
    expect(refused.status).toBe(403);
    expect(bookingRow(body.id)?.status).toBe("PENDING");
  });

  it("answers a bad or unknown id with 404 and other methods with 405", async () => {
    const owner = await signUp();
    for (const id of ["abc", "0", "99999999", "1.5", "-1"]) {
      const response = await api(`/api/bookings/${id}/status`, {
        method: "PATCH",
        body: { status: "CONFIRMED" },
        cookie: owner.cookie,
      });
      expect(response.status).toBe(404);
    }
    const get = await api("/api/bookings/1/status", { cookie: owner.cookie });
    expect(get.status).toBe(405);
    const put = await api("/api/bookings/1/status", {
      method: "PUT",
      body: { status: "CONFIRMED" },
      cookie: owner.cookie,
    });
    expect(put.status).toBe(405);
  });
});

describe("payment holds", () => {
  it("frees an expired hold's slot and coupon use for the next customer", async () => {
    const first = await signUp();
    const second = await signUp();
    const date = freshDate();
    const coupon = createCoupon(writer, { type: "FIXED_AMOUNT", value: 5000, maxUses: 1 });
    const payload = bookingPayload(date, "15:00", 2, { couponCode: coupon.code });

    const held = await book(first, payload);
    expect(held.response.status).toBe(201);
    expect(held.body).toMatchObject({ status: "PENDING_PAYMENT", totalCost: 350 });
    expect(couponUses(coupon.id).currentUses).toBe(1);

    const whileHeld = await book(second, payload);
    expect(whileHeld.response.status).toBe(422);

    writer
      .update(bookings)
      .set({ holdExpiresAt: Date.now() - 1000 })
      .where(eq(bookings.id, Number(held.body.id)))
      .run();

    const availability = (await (await api(`/api/availability?date=${date}&hours=2`)).json()) as {
      times: { time: string; available: boolean }[];
    };
    expect(availability.times.find((t) => t.time === "15:00")?.available).toBe(true);

    const rebooked = await book(second, payload);
    expect(rebooked.response.status).toBe(201);
    expect(rebooked.body).toMatchObject({ couponCode: coupon.code, totalCost: 350 });
    expect(bookingRow(held.body.id)).toMatchObject({
      status: "CANCELLED",
      cancellationReason: HOLD_EXPIRED_REASON,
    });
    expect(couponUses(coupon.id)).toEqual({ currentUses: 1, maxUses: 1 });

    // The first customer can no longer pay the released booking.
    const late = await pay(first, held.body.id, cardBody(350));
    expect(late.status).toBe(422);
    expect(paymentRows(held.body.id)).toHaveLength(0);
  });
});

describe("POST /api/bookings refusals write nothing", () => {
  let customer: SignedIn;
  beforeAll(async () => {
    customer = await signUp();
  });

  async function expectRefused(request: () => Promise<Response>, status: number, message?: string) {
    const before = server.count("bookings");
    const response = await request();
    expect(response.status).toBe(status);
    const body = (await response.json()) as Json;
    if (message) expect(body.message).toBe(message);
    else expect(typeof body.message).toBe("string");
    expect(server.count("bookings")).toBe(before);
  }

  it("enforces the 48-hour rule", async () => {
    const today = studioDateOf(Date.now());
    for (const date of [today, addStudioDays(today, 1), addStudioDays(today, -3)]) {
      await expectRefused(
        () =>
          api("/api/bookings", { body: bookingPayload(date, "23:00", 2), cookie: customer.cookie }),
        400,
        ADVANCE_NOTICE,
      );
    }
  });

  it.each([
    [{ firstName: "  " }, "First name is required"],
    [{ lastName: "" }, "Last name is required"],
    [{ phoneNumber: "404-555" }, "Please enter a valid phone number"],
    [{ email: "not-an-email" }, "Please enter a valid email address"],
    [{ recordingTime: "" }, "Please select a time"],
    [{ recordingTime: undefined }, "Please select a time"],
    [{ guestCount: "" }, "Please select number of guests"],
    [{ guestCount: "5" }, "Please select number of guests"],
    [{ hoursNeeded: "" }, "Please select duration"],
    [{ hoursNeeded: "1" }, "Please select duration"],
    [{ hoursNeeded: "9" }, "Please select duration"],
    [{ recordingDate: "2030-02-30" }, "Please select a date"],
  ])("rejects %o with the message of docs/product.md 'Validation'", async (overrides, message) => {
    await expectRefused(
      () =>
        api("/api/bookings", {
          body: bookingPayload(freshDate(), "10:00", 2, overrides),
          cookie: customer.cookie,
        }),
      400,
      message,
    );
  });

  it("refuses a visitor with 401", async () => {
    await expectRefused(
      () => api("/api/bookings", { body: bookingPayload(freshDate(), "10:00", 2) }),
      401,
      "Not authenticated",
    );
  });

  it("refuses booking for another account with 403", async () => {
    const other = await signUp();
    await expectRefused(
      () =>
        api("/api/bookings", {
          body: bookingPayload(freshDate(), "10:00", 2, { userId: other.id }),
          cookie: customer.cookie,
        }),
      403,
      "You can only book for your own account",
    );
  });

  it("refuses a coupon that cannot be used", async () => {
    const inactive = createCoupon(writer, { type: "PERCENTAGE", value: 10, isActive: false });
    const expired = createCoupon(writer, {
      type: "PERCENTAGE",
      value: 10,
      expiryDate: "2001-01-01",
    });
    const cases: [string, string][] = [
      ["NO-SUCH-CODE", "This coupon is invalid or has expired."],
      [inactive.code, "This coupon is invalid or has expired."],
      [expired.code, "This coupon is invalid or has expired."],
    ];
    for (const [code, message] of cases) {
      await expectRefused(
        () =>
          api("/api/bookings", {
            body: bookingPayload(freshDate(), "10:00", 2, { couponCode: code }),
            cookie: customer.cookie,
          }),
        400,
        message,
      );
    }
  });

  it("answers bad JSON with 400 and a wrong content type with 415", async () => {
    const post = (body: string, type: string) =>
      fetch(`${server.url}/api/bookings`, {
        method: "POST",
        headers: { "Content-Type": type, Cookie: customer.cookie },
        body,
      });
    await expectRefused(
      () => post("{nope", "application/json"),
      400,
      "The request body is not valid JSON",
    );
    await expectRefused(
      () =>
        post(
          new URLSearchParams({ firstName: "Ada" }).toString(),
          "application/x-www-form-urlencoded",
        ),
      415,
    );
    for (const body of ["null", "[]", "42", '{"recordingDate": {"$gt": ""}}']) {
      await expectRefused(() => post(body, "application/json"), 400);
    }
  });

  it("refuses a cross-site write", async () => {
    await expectRefused(
      () =>
        api("/api/bookings", {
          body: bookingPayload(freshDate(), "10:00", 2),
          cookie: customer.cookie,
          headers: { Origin: "https://evil.example" },
        }),
      403,
      "Cross-site request refused",
    );
  });

  it("refuses other methods with 405", async () => {
    const response = await api("/api/bookings", {
      method: "PUT",
      body: {},
      cookie: customer.cookie,
    });
    expect(response.status).toBe(405);
  });
});

describe("GET /api/bookings", () => {
  it("lists only the caller's bookings, newest first, and is 401 for visitors", async () => {
    const owner = await signUp();
    const other = await signUp();
    const first = await book(owner, bookingPayload(freshDate(), "10:00", 2));
    const second = await book(owner, bookingPayload(freshDate(), "10:00", 2));
    await book(other, bookingPayload(freshDate(), "10:00", 2));

    const response = await api("/api/bookings", { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const list = (await response.json()) as Json[];
    expect(list.map((booking) => booking.id)).toEqual([second.body.id, first.body.id]);
    expect(list.every((booking) => booking.userId === owner.id)).toBe(true);

    expect((await api("/api/bookings")).status).toBe(401);
  });
});

describe("POST /api/bookings/{id}/payments/direct", () => {
  async function unpaidBooking(owner: SignedIn) {
    const { response, body } = await book(owner, bookingPayload(freshDate(), "10:00", 2));
    expect(response.status).toBe(201);
    return body;
  }

  it("takes a good card, keeps only brand and last 4, and moves the booking to PENDING", async () => {
    const owner = await signUp();
    const booking = await unpaidBooking(owner);
    const response = await pay(owner, booking.id, cardBody(booking.totalCost));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(GOOD_CARD_DIGITS);
    expect(text).not.toContain(GOOD_CARD);
    const body = JSON.parse(text) as { success: boolean; transactionId: string; booking: Json };
    expect(body.success).toBe(true);
    expect(body.transactionId).toMatch(/^sandbox_/);
    expect(body.booking).toMatchObject({ id: booking.id, status: "PENDING", holdExpiresAt: null });
    expect(bookingRow(booking.id)?.status).toBe("PENDING");

    const rows = paymentRows(booking.id);
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      amount: 400,
      paymentMethod: "card",
      transactionId: body.transactionId,
      userId: owner.id,
    });
    expect(row?.paymentDetails).toEqual({ brand: "visa", last4: "4242" });
    const { transactionId: _random, ...rest } = row ?? {};
    const stored = JSON.stringify(rest);
    expect(stored).not.toContain(GOOD_CARD_DIGITS);
    expect(stored).not.toContain(CVV);
    expect(stored).not.toMatch(/cvv|cardNumber/i);

    const outbox = JSON.stringify(server.db.select().from(emailOutbox).all());
    expect(outbox).not.toContain(GOOD_CARD_DIGITS);
    expect(server.output()).not.toContain(GOOD_CARD_DIGITS);
    expect(server.output()).not.toContain(GOOD_CARD);
  });

  it("refuses a declined card with 402 and records nothing", async () => {
    const owner = await signUp();
    const booking = await unpaidBooking(owner);
    const response = await pay(
      owner,
      booking.id,
      cardBody(booking.totalCost, { cardNumber: DECLINED_CARD }),
    );
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({
      message: "Your card was declined. Please use a different card.",
    });
    expect(bookingRow(booking.id)?.status).toBe("PENDING_PAYMENT");
    expect(paymentRows(booking.id)).toHaveLength(0);
  });

  it("refuses a number failing the Luhn check with 402", async () => {
    const owner = await signUp();
    const booking = await unpaidBooking(owner);
    const response = await pay(
      owner,
      booking.id,
      cardBody(booking.totalCost, { cardNumber: LUHN_FAILING_CARD }),
    );
    expect(response.status).toBe(402);
    const text = await response.text();
    expect(text).not.toContain(LUHN_FAILING_CARD);
    expect(JSON.parse(text)).toEqual({
      message: "This card number is invalid. Please check it and try again.",
    });
    expect(bookingRow(booking.id)?.status).toBe("PENDING_PAYMENT");
    expect(paymentRows(booking.id)).toHaveLength(0);
  });

  it.each([
    [{ cardName: " " }, "Cardholder name is required"],
    [{ cardNumber: "4242 4242 4242" }, "Card number must be 16 digits"],
    [{ expirationDate: "13/39" }, "Please enter a valid expiration date (MM/YY)"],
    [{ expirationDate: "01/20" }, "Please enter a valid expiration date (MM/YY)"],
    [{ cvv: "12" }, "CVV must be 3 digits"],
  ])("validates the card form: %o", async (overrides, message) => {
    const owner = await signUp();
    const booking = await unpaidBooking(owner);
    const response = await pay(owner, booking.id, cardBody(booking.totalCost, overrides));
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text).message).toBe(message);
    expect(text).not.toContain(CVV);
    expect(paymentRows(booking.id)).toHaveLength(0);
  });

  it("refuses a second payment after success", async () => {
    const owner = await signUp();
    const booking = await unpaidBooking(owner);
    expect((await pay(owner, booking.id, cardBody(booking.totalCost))).status).toBe(200);
    const again = await pay(owner, booking.id, cardBody(booking.totalCost));
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({ message: "This booking has already been paid." });
    expect(paymentRows(booking.id)).toHaveLength(1);
  });

  it("records one payment for two simultaneous requests", async () => {
    const owner = await signUp();
    const booking = await unpaidBooking(owner);
    const responses = await Promise.all([
      pay(owner, booking.id, cardBody(booking.totalCost)),
      pay(owner, booking.id, cardBody(booking.totalCost)),
    ]);
    expect(statusOf(responses)).toEqual({ 200: 1, 422: 1 });
    expect(paymentRows(booking.id)).toHaveLength(1);
    expect(bookingRow(booking.id)?.status).toBe("PENDING");
  });

  it("refuses an amount that is not the booking's total, charging nothing", async () => {
    const owner = await signUp();
    const booking = await unpaidBooking(owner);
    for (const amount of [1, 0, 399, "400.5", "abc"]) {
      const response = await pay(owner, booking.id, cardBody(amount));
      expect(response.status).toBe(400);
      expect(((await response.json()) as Json).message).toBe(
        "The amount does not match the booking total",
      );
    }
    expect(paymentRows(booking.id)).toHaveLength(0);
    expect(bookingRow(booking.id)?.status).toBe("PENDING_PAYMENT");
    // The amount is optional: without it the booking's own total is charged.
    const { amount: _omitted, ...withoutAmount } = cardBody(booking.totalCost);
    expect((await pay(owner, booking.id, withoutAmount)).status).toBe(200);
    expect(paymentRows(booking.id)[0]?.amount).toBe(400);
  });

  it("answers 404 for another customer's booking or a bad id, 401 for a visitor", async () => {
    const owner = await signUp();
    const stranger = await signUp();
    const booking = await unpaidBooking(owner);
    const before = paymentCount();
    const foreign = await pay(stranger, booking.id, cardBody(booking.totalCost));
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ message: "Booking not found" });
    expect((await pay(owner, "abc", cardBody(booking.totalCost))).status).toBe(404);
    expect((await pay(owner, 99999999, cardBody(booking.totalCost))).status).toBe(404);
    const visitor = await api(`/api/bookings/${booking.id}/payments/direct`, {
      body: cardBody(booking.totalCost),
    });
    expect(visitor.status).toBe(401);
    expect(paymentCount()).toBe(before);
    expect(bookingRow(booking.id)?.status).toBe("PENDING_PAYMENT");
  });

  it("refuses to charge a free booking", async () => {
    const owner = await signUp();
    const coupon = createCoupon(writer, { type: "PERCENTAGE", value: 100 });
    const { body } = await book(
      owner,
      bookingPayload(freshDate(), "10:00", 2, { couponCode: coupon.code }),
    );
    const response = await pay(owner, body.id, cardBody(0));
    expect(response.status).toBe(422);
    expect(paymentRows(body.id)).toHaveLength(0);
  });
});

describe("GET /api/availability and /api/bookings/check-conflicts", () => {
  it("marks the start times overlapping a booking as taken, and check-conflicts agrees", async () => {
    const owner = await signUp();
    const date = freshDate();
    const booked = await book(owner, bookingPayload(date, "10:00", 3));
    expect(booked.response.status).toBe(201);

    const response = await api(`/api/availability?date=${date}&hours=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = (await response.json()) as {
      date: string;
      hours: number;
      earliestDate: string;
      times: { time: string; available: boolean; reason: string | null }[];
    };
    expect(body).toMatchObject({ date, hours: 2, earliestDate: earliestBookableDate(Date.now()) });
    expect(body.times).toHaveLength(24);
    const taken = body.times.filter((t) => !t.available).map((t) => t.time);
    // 10:00-13:00 is booked: a 2-hour session from 09:00 to 12:00 would overlap it.
    expect(taken).toEqual(["09:00", "10:00", "11:00", "12:00"]);
    expect(body.times.find((t) => t.time === "10:00")?.reason).toBe("taken");

    for (const { time, available } of body.times) {
      const check = await api(
        `/api/bookings/check-conflicts?recordingDate=${date}&recordingTime=${encodeURIComponent(time)}&hoursNeeded=2`,
      );
      expect(check.status).toBe(200);
      expect(await check.json()).toEqual({ hasConflict: !available });
    }

    // A longer session reaches further back.
    const long = (await (await api(`/api/availability?date=${date}&hours=4`)).json()) as {
      times: { time: string; available: boolean }[];
    };
    expect(long.times.filter((t) => !t.available).map((t) => t.time)).toEqual([
      "07:00",
      "08:00",
      "09:00",
      "10:00",
      "11:00",
      "12:00",
    ]);
  });

  it("marks days inside 48 hours as too soon", async () => {
    const today = studioDateOf(Date.now());
    const body = (await (await api(`/api/availability?date=${today}&hours=2`)).json()) as {
      times: { available: boolean; reason: string | null }[];
    };
    expect(body.times.every((t) => !t.available && t.reason === "too-soon")).toBe(true);
  });

  it("answers a bad query with 400 and a message", async () => {
    const cases: [string, string][] = [
      ["/api/availability", "Please select a date"],
      ["/api/availability?date=2030-02-30&hours=2", "Please select a date"],
      ["/api/availability?date=tomorrow", "Please select a date"],
      ["/api/availability?date=2030-03-01&hours=9", "Please select duration"],
      ["/api/availability?date=2030-03-01&hours=two", "Please select duration"],
      ["/api/bookings/check-conflicts", "Please select a date"],
      [
        "/api/bookings/check-conflicts?recordingDate=2030-03-01&recordingTime=25:00&hoursNeeded=2",
        "Please select a time",
      ],
      [
        "/api/bookings/check-conflicts?recordingDate=2030-03-01&recordingTime=10:00",
        "Please select duration",
      ],
    ];
    for (const [path, message] of cases) {
      const response = await api(path);
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as Json).message, path).toBe(message);
    }
  });
});

describe("GET /api/services", () => {
  it("lists active services to everyone and all services to admins only", async () => {
    const active = insertService("Mixing", 120);
    const inactive = insertService("Old add-on", 30, false);

    const publicList = await api("/api/services");
    expect(publicList.status).toBe(200);
    const ids = ((await publicList.json()) as Json[]).map((service) => service.id);
    expect(ids).toContain(active);
    expect(ids).not.toContain(inactive);
    const explicit = (await (await api("/api/services?activeOnly=true")).json()) as Json[];
    expect(explicit.map((service) => service.id)).toEqual(ids);

    expect((await api("/api/services?activeOnly=false")).status).toBe(401);
    const customer = await signUp();
    expect((await api("/api/services?activeOnly=false", { cookie: customer.cookie })).status).toBe(
      403,
    );
    const admin = await signUpAdmin();
    const all = await api("/api/services?activeOnly=false", { cookie: admin.cookie });
    expect(all.status).toBe(200);
    const allServices = (await all.json()) as Json[];
    expect(allServices.map((service) => service.id)).toEqual(
      expect.arrayContaining([active, inactive]),
    );
    expect(allServices.find((service) => service.id === active)).toMatchObject({
      name: "Mixing",
      price: 120,
      isActive: true,
    });
    expect((await api("/api/services?activeOnly=maybe")).status).toBe(400);
  });
});

describe("GET /api/coupons/validate/{code}", () => {
  it("answers a visitor too", async () => {
    const coupon = createCoupon(writer, { type: "PERCENTAGE", value: 10 });
    const response = await api(`/api/coupons/validate/${coupon.code}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ isValid: true });
  });

  it("answers valid and invalid codes with the domain messages", async () => {
    const customer = await signUp();
    const valid = createCoupon(writer, { type: "FIXED_AMOUNT", value: 2500 });
    const usedUp = createCoupon(writer, {
      type: "PERCENTAGE",
      value: 10,
      maxUses: 2,
      currentUses: 2,
    });
    const inactive = createCoupon(writer, { type: "PERCENTAGE", value: 10, isActive: false });
    const validate = async (code: string) => {
      const response = await api(`/api/coupons/validate/${encodeURIComponent(code)}`, {
        cookie: customer.cookie,
      });
      return { status: response.status, body: (await response.json()) as Json };
    };

    expect(await validate(valid.code.toLowerCase())).toEqual({
      status: 200,
      body: {
        isValid: true,
        message: "Coupon is valid",
        coupon: { code: valid.code, value: 2500, type: "FIXED_AMOUNT" },
      },
    });
    expect(await validate("NOPE-NOT-A-CODE")).toEqual({
      status: 200,
      body: { isValid: false, message: "This coupon is invalid or has expired.", coupon: null },
    });
    expect((await validate(usedUp.code)).body).toMatchObject({ isValid: false, message: USED_UP });
    expect((await validate(inactive.code)).body).toMatchObject({
      isValid: false,
      message: "This coupon is invalid or has expired.",
    });
    expect(await validate("  ")).toEqual({
      status: 400,
      body: { message: "Please enter a coupon code" },
    });
  });
});

describe("logs", () => {
  it("hold no stack trace, SQL or card number", () => {
    const output = server.output();
    expect(output).not.toMatch(/\n\s+at /);
    expect(output).not.toMatch(/SELECT|INSERT/);
    expect(output).not.toContain(GOOD_CARD_DIGITS);
    expect(output).not.toContain(DECLINED_CARD);
    expect(output).not.toContain(LUHN_FAILING_CARD);
  });
});

describe("who a booking's e-mails go to", () => {
  it("mails the account's own address, never the contact e-mail typed in the form", async () => {
    const tag = Date.now().toString(36);
    const accountAddress = `owner_${tag}@example.com`;
    const stranger = `stranger_${tag}@victim.example`;
    const owner = await signUp({ email: accountAddress });
    const { response, body } = await book(
      owner,
      bookingPayload(freshDate(), "10:00", 2, { email: stranger, firstName: "Hello stranger" }),
    );
    expect(response.status).toBe(201);
    // The contact e-mail is kept on the booking for staff.
    expect(bookingRow(body.id)?.email).toBe(stranger);

    expect((await pay(owner, body.id, cardBody(body.totalCost))).status).toBe(200);
    const cancelled = await api(`/api/bookings/${body.id}/cancel`, {
      body: { expectedRefund: body.totalCost },
      cookie: owner.cookie,
    });
    expect(cancelled.status).toBe(200);

    const mails = server.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.bookingId, Number(body.id)))
      .all();
    expect(mails.map((mail) => mail.kind).sort()).toEqual([
      "booking-cancelled",
      "booking-received",
      "payment-received",
    ]);
    expect(mails.map((mail) => mail.toAddress)).toEqual([
      accountAddress,
      accountAddress,
      accountAddress,
    ]);
    const toStranger = server.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, stranger))
      .all();
    expect(toStranger).toEqual([]);
  });
});
