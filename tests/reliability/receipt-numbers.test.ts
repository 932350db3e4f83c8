import { expect, it } from "vitest";
import { payments, receipts } from "#db/schema";
import {
  cardBody,
  type Customer,
  databaseForThisFile,
  inspect,
  postBooking,
  postJson,
  type ServerProcess,
  signUp,
  slotSequence,
} from "#tests/reliability/support";

/**
 * docs/product.md "Receipts": numbers are gap-free and unique per kind and year. Two server
 * processes on one file pay and refund many bookings at the same moment, so the number of each
 * document is taken while the other process is recording its own; only SQLite's write lock
 * (BEGIN IMMEDIATE) keeps two of them from reading the same highest number.
 */
const { dbPath, launch } = databaseForThisFile("receipt-numbers");

const BOOKINGS = 60;

it("numbers every receipt and credit note once, without a gap, with two processes at once", async () => {
  // One after the other: both would otherwise migrate the fresh file at the same moment.
  const servers = [await launch(), await launch()] as [ServerProcess, ServerProcess];
  const customers: Customer[] = [];
  for (let i = 0; i < 4; i += 1) customers.push(await signUp(servers[0].url));
  const nextSlot = slotSequence();
  const booked: { id: number; totalCost: number; customer: Customer }[] = [];
  for (let i = 0; i < BOOKINGS; i += 1) {
    const customer = customers[i % customers.length] as Customer;
    const answer = await postBooking(servers[0].url, customer, nextSlot());
    expect(answer.status).toBe(201);
    booked.push({
      id: Number(answer.json.id),
      totalCost: Number(answer.json.totalCost),
      customer,
    });
  }

  // Every payment at once, alternating between the two processes.
  const paid = await Promise.all(
    booked.map((booking, i) =>
      postJson(
        (servers[i % 2] as ServerProcess).url,
        `/api/bookings/${booking.id}/payments/direct`,
        cardBody(booking.totalCost),
        booking.customer.cookie,
      ),
    ),
  );
  expect(paid.map((answer) => answer.status)).toEqual(booked.map(() => 200));

  // Half of them cancelled at once (refunded in full: they are days away), on both processes.
  const cancelled = await Promise.all(
    booked
      .filter((_, i) => i % 2 === 0)
      .map((booking, i) =>
        postJson(
          (servers[i % 2] as ServerProcess).url,
          `/api/bookings/${booking.id}/cancel`,
          {},
          booking.customer.cookie,
        ),
      ),
  );
  expect(cancelled.map((answer) => answer.status)).toEqual(cancelled.map(() => 200));

  const { documents, paymentCount } = inspect(dbPath, (db) => ({
    documents: db.select().from(receipts).all(),
    paymentCount: db.select().from(payments).all().length,
  }));
  expect(paymentCount).toBe(BOOKINGS + BOOKINGS / 2);
  // One document per payment...
  expect(new Set(documents.map((d) => d.paymentId)).size).toBe(paymentCount);
  // ...and each series 1, 2, 3... with nothing missing and nothing twice.
  for (const kind of ["RECEIPT", "CREDIT_NOTE"] as const) {
    const years = [...new Set(documents.filter((d) => d.kind === kind).map((d) => d.year))];
    for (const year of years) {
      const numbers = documents
        .filter((d) => d.kind === kind && d.year === year)
        .map((d) => d.number)
        .sort((a, b) => a - b);
      expect(numbers, `${kind} ${year}`).toEqual(numbers.map((_, i) => i + 1));
    }
  }
  expect(documents.filter((d) => d.kind === "RECEIPT")).toHaveLength(BOOKINGS);
  expect(documents.filter((d) => d.kind === "CREDIT_NOTE")).toHaveLength(BOOKINGS / 2);
});
