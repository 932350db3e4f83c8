import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings } from "#db/schema";
import { actorsFor } from "#tests/setup/actors";
import { bookingPayload } from "#tests/setup/payloads";
import {
  collectOutput,
  freePort,
  INTEGRATION_SESSION_SECRET,
  spawnServer,
  waitUntilHealthy,
} from "#tests/setup/server";
import { serverForThisFile } from "#tests/setup/server-for-this-file";
import { WAITLIST_SETTINGS, waitlistSteps } from "#tests/setup/waitlist-steps";

/**
 * The waitlist's claim race (docs/product.md "Waitlist") between two server processes on one
 * database file; the rest of the waitlist is tests/routes/waitlist.test.ts.
 */
const server = serverForThisFile(WAITLIST_SETTINGS);
const people = actorsFor(server);
const { entry, claimFromForm, threeCustomers, cancelledWhileWaiting } = waitlistSteps(
  server,
  people,
);

describe("offers and claims", () => {
  it("the claim race: of two waiters, exactly one books; the other gets our message", async () => {
    const [owner, first, second] = await threeCustomers();
    const {
      date,
      ids: [firstId, secondId],
    } = await cancelledWhileWaiting(owner, [first, second]);
    expect(entry(firstId)?.status).toBe("OFFERED");
    expect(entry(secondId)?.status).toBe("WAITING");
    // A second server process on the same database file, as production may run: the second
    // waiter's requests go there, so they really run while the first's is in flight, each
    // process's transaction waiting on SQLite's write lock rather than on one event loop.
    const port = await freePort();
    const other = spawnServer(port, server.dbPath, {
      SESSION_SECRET: INTEGRATION_SESSION_SECRET,
      BOOKING_RATE_LIMIT: "1000",
      MAX_UNPAID_HOLDS: "50",
      MAX_UNPAID_SESSIONS: "1000",
    });
    const otherUrl = `http://127.0.0.1:${port}`;
    await waitUntilHealthy(other, otherUrl, collectOutput(other));
    const [secondClaim, firstClaim, secondApi] = await Promise.all([
      claimFromForm(second, date, secondId, otherUrl),
      claimFromForm(first, date, firstId, server.url),
      fetch(`${otherUrl}/api/bookings`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: second.cookie },
        body: JSON.stringify(bookingPayload(date, "10:00")),
      }),
    ]).finally(async () => {
      const exited = new Promise((resolve) => other.once("exit", resolve));
      other.kill("SIGTERM");
      await exited;
    });
    expect(firstClaim.status).toBe(302);
    expect(secondClaim.status).toBe(400);
    expect(await secondClaim.text()).toContain(
      "This waitlist offer is no longer yours to claim: it ran out, was removed or belongs to someone else.",
    );
    expect(secondApi.status).toBe(422);
    const live = people
      .db()
      .select()
      .from(bookings)
      .where(and(eq(bookings.recordingDate, date)))
      .all()
      .filter((row) => row.status !== "CANCELLED");
    expect(live.map((row) => row.userId)).toEqual([first.id]);
    expect(entry(firstId)?.status).toBe("CLAIMED");
    expect(entry(secondId)?.status).toBe("WAITING");
  });
});
