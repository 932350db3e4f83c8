import { describe, expect, it } from "vitest";
import { addStudioDays, studioDateOf, studioSession } from "#app/domain/studio-time";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * My Sessions on /dashboard and / (spec section 2 "Client dashboard"), against the
 * production build: each customer sees only their own sessions, in the right list, and the
 * "payment received" dialog appears only for the owner's booking that really was paid.
 */
const server = serverForThisFile();
const people = actorsFor(server);

function seedBooking(owner: Actor, date: string, status = "CONFIRMED", total = 400): number {
  const { startsAt, endsAt } = studioSession(date, "10:00", 2);
  const result = people
    .db()
    .prepare(
      `INSERT INTO bookings (user_id, first_name, last_name, phone_number, email, stakeholder,
         recording_date, recording_time, guest_count, hours_needed, starts_at, ends_at,
         hourly_rate, total_cost, original_cost, status, hold_expires_at)
       VALUES (?, 'Ada', 'Lovelace', '404-555-0100', 'ada@example.com', 'no', ?, '10:00', '1',
         '2', ?, ?, 200, ?, ?, ?, ?)`,
    )
    .run(
      owner.id,
      date,
      startsAt,
      endsAt,
      total,
      total,
      status,
      status === "PENDING_PAYMENT" ? Date.now() + 30 * 60_000 : null,
    );
  return Number(result.lastInsertRowid);
}

function seedPayment(owner: Actor, bookingId: number, amount: number) {
  people
    .db()
    .prepare(
      `INSERT INTO payments (booking_id, user_id, amount, payment_method, payment_date,
         transaction_id, payment_details)
       VALUES (?, ?, ?, 'card', ?, ?, '{"brand":"visa","last4":"4242"}')`,
    )
    .run(bookingId, owner.id, amount, Date.now(), `test_${bookingId}_${amount}`);
}

async function page(path: string, actor: Actor) {
  const response = await fetch(`${server.url}${path}`, { headers: { Cookie: actor.cookie } });
  return { status: response.status, html: await response.text() };
}

const rowLink = (id: number) => new RegExp(`session #(<!-- -->)?${id}(<!-- -->)? on`);
const today = () => studioDateOf(Date.now());

describe("My Sessions", () => {
  it("lists only the customer's own sessions, upcoming and past apart", async () => {
    const owner = await people.signUp();
    const other = await people.signUp();
    const upcoming = seedBooking(owner, addStudioDays(today(), 20));
    const past = seedBooking(owner, addStudioDays(today(), -20), "COMPLETED");
    const theirs = seedBooking(other, addStudioDays(today(), 21));

    for (const path of ["/dashboard", "/dashboard?tab=bookings", "/"]) {
      const { status, html } = await page(path, owner);
      expect(status, path).toBe(200);
      expect(html, path).toMatch(rowLink(upcoming));
      expect(html, path).not.toMatch(rowLink(past));
      expect(html, path).not.toMatch(rowLink(theirs));
    }
    const { html } = await page("/dashboard?tab=bookings&list=past", owner);
    expect(html).toMatch(rowLink(past));
    expect(html).not.toMatch(rowLink(upcoming));
    expect(html).not.toMatch(rowLink(theirs));
  });

  it("says so when a list is empty", async () => {
    const owner = await people.signUp();
    expect((await page("/dashboard?tab=bookings", owner)).html).toContain("No upcoming sessions");
    expect((await page("/dashboard?tab=bookings&list=past", owner)).html).toContain(
      "No past sessions",
    );
  });
});

describe("the payment received dialog (?paid=<id>)", () => {
  const DIALOG = "Payment received";

  it("shows for the owner's paid booking only", async () => {
    const owner = await people.signUp();
    const other = await people.signUp();
    const paid = seedBooking(owner, addStudioDays(today(), 30), "PENDING");
    seedPayment(owner, paid, 400);
    const unpaid = seedBooking(owner, addStudioDays(today(), 31), "PENDING_PAYMENT");
    const theirs = seedBooking(other, addStudioDays(today(), 32), "PENDING");
    seedPayment(other, theirs, 400);
    // Paid, then refunded in full: nothing paid any more.
    const refunded = seedBooking(owner, addStudioDays(today(), 33), "CONFIRMED");
    seedPayment(owner, refunded, 400);
    seedPayment(owner, refunded, -400);

    const shown = await page(`/dashboard?tab=bookings&paid=${paid}`, owner);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(DIALOG);
    expect(shown.html).toContain("Pending Review");

    for (const value of [String(unpaid), String(theirs), String(refunded), "0x10", "-1", "abc"]) {
      const { status, html } = await page(`/dashboard?tab=bookings&paid=${value}`, owner);
      expect(status, value).toBe(200);
      expect(html, value).not.toContain(DIALOG);
    }
  });
});
