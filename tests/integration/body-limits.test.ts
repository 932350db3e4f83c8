import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actor, actorsFor } from "#tests/setup/actors";
import { closeConnections, send } from "#tests/setup/raw-http";
import { serverForThisFile } from "#tests/setup/server-for-this-file";

/**
 * The bodies the server refuses before the app reads them (server/app.ts): over 1 MB, or
 * streamed without a length, answered on a connection the client may still be writing to. Found
 * by the hostile-input suite (tests/routes/hostile-input-suite.ts), which sends the rest of its
 * input to the app in process.
 */
const server = serverForThisFile();
const people = actorsFor(server);
let customer: Actor;

beforeAll(async () => {
  customer = await people.signUp();
});

afterAll(() => {
  closeConnections();
});

/** A customer's booking form post, which the app would otherwise read. */
const bookingForm = () => ({
  Origin: server.url,
  Cookie: customer.cookie,
  "Content-Type": "application/x-www-form-urlencoded",
});

describe("inputs the hostile-input suite found", () => {
  it("answers the next request on a connection whose refused body was never read", async () => {
    // One socket, so the GET must travel on the connection the unread body was sent on.
    const oneConnection = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(
        server.url,
        {
          method: "PUT",
          path: "/api/services",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ name: "x".repeat(200_000) }),
        },
        oneConnection,
      );
      expect(refused.status).toBe(405);
      const next = await send(server.url, { method: "GET", path: "/healthz" }, oneConnection);
      expect(next.status).toBe(200);
    } finally {
      oneConnection.destroy();
    }
  });

  it.each(["/api/bookings", "/?index"])(
    "refuses a body over 1 MB to %s with 413 before reading it",
    async (path) => {
      const before = people.snapshot();
      const reply = await send(server.url, {
        method: "POST",
        path,
        headers: bookingForm(),
        body: `intent=book&notes=${"x".repeat(1_000_001)}`,
      });
      expect(reply.status).toBe(413);
      expect(people.snapshot()).toEqual(before);
    },
  );
  it("answers a 413 that a client still sending its body reads, not a reset connection", async () => {
    // Far more than the socket buffers take at once: closing at once would reset the connection
    // under the client while it writes, and it would never read the answer.
    const reply = await send(server.url, {
      method: "PATCH",
      path: "/api/bookings/1/status",
      headers: { Origin: server.url, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "é".repeat(6_000_000) }),
    });
    expect(reply.status).toBe(413);
  });
  it.each(["/api/bookings", "/?index"])(
    "refuses a body streamed without a length to %s (411), so the limit cannot be walked around",
    async (path) => {
      const before = people.snapshot();
      const reply = await send(server.url, {
        method: "POST",
        path,
        chunked: true,
        headers: bookingForm(),
        body: `intent=book&notes=${"x".repeat(2_000_000)}`,
      });
      expect(reply.status).toBe(411);
      expect(reply.headers["x-content-type-options"]).toBe("nosniff");
      expect(people.snapshot()).toEqual(before);
    },
  );
});
