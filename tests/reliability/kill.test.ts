import { expect, it } from "vitest";
import {
  bookingCount,
  bookingStream,
  type Customer,
  databaseForThisFile,
  foreignKeyProblems,
  inspect,
  integrityCheck,
  missingBookings,
  missingPayments,
  signUp,
  slotSequence,
  waitFor,
} from "#tests/reliability/support";

/**
 * docs/quality.md "Crash": the server is killed with SIGKILL (no shutdown handler, no checkpoint)
 * while bookings and card payments stream in; after a restart on the same file every write it
 * acknowledged is there and the file is intact.
 */
const { dbPath, launch } = databaseForThisFile("kill", "SIGKILL");

it("keeps every acknowledged booking and payment through kill -9 and a restart", async () => {
  const first = await launch();
  const customers: Customer[] = [];
  for (let i = 0; i < 4; i += 1) customers.push(await signUp(first.url));

  const stream = bookingStream(first.url, customers, slotSequence(), { workers: 8, pay: true });
  // Kill once the stream is well under way, at a moment requests are in the middle of it.
  await waitFor(
    () => stream.payments.length >= 100 && stream.inFlight() >= 4,
    "a busy stream of bookings and payments",
    60_000,
  );
  const inFlightAtKill = stream.inFlight();
  await first.kill("SIGKILL");
  await stream.stop();
  const acked = { bookings: [...stream.bookings], payments: [...stream.payments] };

  const second = await launch();
  const figures = inspect(dbPath, (db) => ({
    integrity: integrityCheck(db),
    foreignKeyProblems: foreignKeyProblems(db),
    missingBookings: missingBookings(db, acked.bookings),
    missingPayments: missingPayments(db, acked.payments),
    rows: bookingCount(db),
  }));
  console.log(
    `kill -9: ${acked.bookings.length} bookings and ${acked.payments.length} payments acknowledged, ` +
      `${inFlightAtKill} requests in flight at the kill, ${figures.rows} booking rows after restart, ` +
      `answers ${JSON.stringify(stream.statuses)}`,
  );

  expect(figures.integrity).toBe("ok");
  expect(figures.foreignKeyProblems).toEqual([]);
  expect(figures.missingBookings).toEqual([]);
  expect(figures.missingPayments).toEqual([]);
  // The stream was cut mid-way: some requests never got an answer.
  expect(stream.failures()).toBeGreaterThan(0);

  // The restarted server serves what was acknowledged through the API too.
  const owner = customers[0] as Customer;
  const listed = (await (
    await fetch(`${second.url}/api/bookings`, { headers: { Cookie: owner.cookie } })
  ).json()) as { id: number }[];
  const ownAcked = acked.bookings.filter((booking) => booking.userId === owner.id);
  expect(ownAcked.length).toBeGreaterThan(0);
  expect(listed.map((booking) => booking.id)).toEqual(
    expect.arrayContaining(ownAcked.map((booking) => booking.id)),
  );
});
