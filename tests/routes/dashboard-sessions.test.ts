import { describe, expect, it } from "vitest";
import type { BookingStatus } from "#app/domain/booking-status";
import { addStudioDays, studioDateOf } from "#app/domain/studio-time";
import { createBooking } from "#tests/factories/booking";
import { CARD_DETAILS, createPayment } from "#tests/factories/payment";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { appForThisFile } from "#tests/setup/app-in-process";

/**
 * My Sessions on /dashboard and / (docs/product.md "Client dashboard"), against the
 * production build: each customer sees only their own sessions, in the right list, and the
 * "payment received" dialog appears only for the owner's booking that really was paid.
 */
const server = appForThisFile();
const people = actorsFor(server);

function seedBooking(
  owner: Actor,
  date: string,
  status: BookingStatus = "CONFIRMED",
  total = 400,
): number {
  return createBooking(people.db(), { user: owner, date, status, totalCost: total }).id;
}

function seedPayment(owner: Actor, bookingId: number, amount: number) {
  createPayment(people.db(), {
    booking: { id: bookingId, userId: owner.id },
    amount,
    paymentMethod: "card",
    transactionId: `test_${bookingId}_${amount}`,
    paymentDetails: CARD_DETAILS,
  });
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
